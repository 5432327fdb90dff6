import Foundation
import ResourceKit
import Synchronization

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
