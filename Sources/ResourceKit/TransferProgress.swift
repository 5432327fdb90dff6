/// How far a load's upload or download has come: the bytes so far, and the total when it is known.
///
/// Set ``Resource/progress`` to receive it; see <doc:TransferringFiles>.
///
/// ```swift
/// var video = Resource<URL>(url: videoURL, downloadingTo: fileURL)
/// video.progress = { progress in print(progress.bytes, "of", progress.expectedBytes ?? -1) }
/// ```
public struct TransferProgress: Sendable {
    /// Whether the bytes are the request body's, on their way to the server; `false` for the response body's.
    public var isUpload: Bool
    /// The bytes sent or received so far.
    public var bytes: Int64
    /// The bytes expected in all, or `nil` when the size isn't known, such as for a compressed or chunked response.
    public var expectedBytes: Int64?

    /// Creates a progress report.
    public init(isUpload: Bool, bytes: Int64, expectedBytes: Int64?) {
        self.isUpload = isUpload
        self.bytes = bytes
        self.expectedBytes = expectedBytes
    }
}
