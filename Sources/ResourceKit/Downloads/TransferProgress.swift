/// How far a load's upload or download has come: the bytes so far, and the total when it is known.
///
/// Set ``Resource/progress`` to receive it; see <doc:TransferringFiles>.
///
/// ```swift
/// var video = Resource<URL>(url: videoURL, downloadingTo: fileURL)
/// video.progress = { progress in print(progress.bytes, "of", progress.expectedBytes ?? -1) }
/// ```
public struct TransferProgress: Sendable {
    /// Which way the bytes go.
    public enum Direction: Sendable, Hashable {
        /// The request body, on its way to the server.
        case upload
        /// The response body, on its way from the server.
        case download
    }

    /// Which way the bytes go.
    public var direction: Direction
    /// The bytes sent or received so far.
    public var bytes: Int64
    /// The bytes expected in all, or `nil` when the size isn't known, such as for a compressed or chunked response.
    public var expectedBytes: Int64?

    /// Creates a progress report.
    public init(direction: Direction, bytes: Int64, expectedBytes: Int64?) {
        self.direction = direction
        self.bytes = bytes
        self.expectedBytes = expectedBytes
    }
}
