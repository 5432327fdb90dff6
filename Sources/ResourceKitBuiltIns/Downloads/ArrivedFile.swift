import Foundation
import ResourceKitCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A download's whole body in its closed temporary file, which replaces the destination only once the load has
/// succeeded: a middleware that fails the load, a timeout or a cancellation after the body arrived leave the
/// destination as it was.
struct ArrivedFile: Sendable {
    let temporary: URL
    let destination: URL

    /// Moves the file to the destination, replacing what was there.
    func moveIntoPlace() throws {
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = "The download can't be moved to \(destination.lastPathComponent)"
            let cause = String(cString: strerror(errno))
            let error = URLError(.cannotMoveFile, userInfo: [NSLocalizedDescriptionKey: "\(reason): \(cause)."])
            unlink(temporary.path)
            throw error
        }
    }

    /// Removes the file.
    func remove() {
        unlink(temporary.path)
    }
}

extension ResponseBody {
    /// A download's whole body, in `file`: it takes the destination's place once the load has succeeded, and is
    /// removed if the load fails.
    init(_ file: ArrivedFile) {
        self.init(committing: { try file.moveIntoPlace() }, discarding: { file.remove() })
    }
}
