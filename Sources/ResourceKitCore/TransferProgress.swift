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

/// A progress report due, with the closure it goes to; reported outside any lock.
public struct DueProgress: Sendable {
    /// The report.
    public let progress: TransferProgress
    /// Where it goes.
    public let receiver: @Sendable (TransferProgress) -> Void

    /// Sends the report to its receiver.
    public func report() { receiver(progress) }
}

/// Counts a transfer's bytes for ``LoadContext/progress`` and says when a report is due: about every hundredth of the expected bytes, and at most
/// once per 64 KiB, so a 1 GB transfer makes about a hundred reports rather than one per chunk.
public struct ProgressCounter: Sendable {
    /// Whether it counts an upload.
    public let isUpload: Bool
    /// The bytes expected, when known.
    public let expected: Int64?
    /// Where reports go.
    public let receiver: (@Sendable (TransferProgress) -> Void)?
    /// The bytes counted so far.
    public private(set) var bytes: Int64 = 0
    private var reported: Int64 = -1

    /// A counter that starts at `start` bytes: the offset a resumed download goes on from.
    public init(
        isUpload: Bool,
        expected: Int64?,
        receiver: (@Sendable (TransferProgress) -> Void)?,
        from start: Int64 = 0
    ) {
        self.isUpload = isUpload
        self.expected = expected
        self.receiver = receiver
        bytes = start
        reported = start == 0 ? -1 : start
    }

    private var step: Int64 { max(65_536, (expected ?? 0) / 100) }

    /// Counts `count` more bytes; returns the report that is due, if one is.
    public mutating func add(_ count: Int) -> DueProgress? {
        bytes += Int64(count)
        return bytes - reported >= step ? due() : nil
    }

    /// The last report, unless the bytes so far were reported already or there were none to expect.
    public mutating func end() -> DueProgress? {
        bytes == reported || (bytes == 0 && expected == nil) ? nil : due()
    }

    private mutating func due() -> DueProgress? {
        guard let receiver else { return nil }
        reported = bytes
        return DueProgress(
            progress: TransferProgress(isUpload: isUpload, bytes: bytes, expectedBytes: expected), receiver: receiver)
    }
}
