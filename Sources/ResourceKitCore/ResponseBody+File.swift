import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ResponseBody {
    /// A download's whole body, in the closed file `file` beside `destination`: the load moves it into
    /// `destination`'s place once it has succeeded, before the parse, and it is removed if the load fails.
    ///
    /// It is what a download's receiver returns (``Resource/receiver``): a middleware that fails the load, a timeout
    /// or a cancellation after the body arrived leave the destination as it was.
    public init(file: URL, replacing destination: URL) {
        storage = .file(ArrivedFile.Held(ArrivedFile(temporary: file, destination: destination)))
    }

    /// The file of a download's whole body, once: for the load that succeeded, to move into place; `nil` for any other
    /// body.
    func takeFile() -> ArrivedFile? {
        if case .file(let held) = storage { held.take() } else { nil }
    }
}

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

    /// A download's whole body as a response carries it up the pipeline (``ResponseBody``): the file, removed when
    /// the last copy of the response goes unless the load took it to move it into place.
    final class Held: Sendable {
        private let file: Mutex<ArrivedFile?>

        init(_ file: ArrivedFile) {
            self.file = Mutex(file)
        }

        /// The file, once: for the load that succeeded.
        func take() -> ArrivedFile? {
            file.withLock { file in
                defer { file = nil }
                return file
            }
        }

        deinit {
            take()?.remove()
        }
    }
}
