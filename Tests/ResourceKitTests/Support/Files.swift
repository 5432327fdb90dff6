import Foundation
import ResourceKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A new empty directory for one test, in the temporary directory; the test removes it.
func newDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("transfer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// The names of the files in `directory`, hidden ones included, sorted.
func files(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
}

/// The progress reports a resource's closure received, in order.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class ProgressLog: Sendable {
    private let received = Mutex<[TransferProgress]>([])

    var receiver: @Sendable (TransferProgress) -> Void {
        { progress in self.received.withLock { $0.append(progress) } }
    }

    var reports: [TransferProgress] { received.withLock { $0 } }
}

/// Each of `secrets` found in a name or the bytes of a file in `directory`, hidden ones included, as
/// `"<secret> in <name>"`: what a reader of the directory would see in clear.
func secrets(_ secrets: [String], foundIn directory: URL) throws -> [String] {
    var found: [String] = []
    for name in try files(in: directory) {
        let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
        for secret in secrets where name.contains(secret) || bytes.range(of: Data(secret.utf8)) != nil {
            found.append("\(secret) in \(name)")
        }
    }
    return found
}

/// The owner, permission bits and inode of the file at `url`, without following a link.
func ownership(of url: URL) -> (owner: uid_t, mode: mode_t, inode: UInt64)? {
    var status = stat()
    guard lstat(url.path, &status) == 0 else { return nil }
    return (status.st_uid, status.st_mode & 0o777, UInt64(status.st_ino))
}
