import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a body that arrives is read into besides memory: a download's file and its resume state, and the progress it
/// reports to (`ArrivingBody`).
struct Transfer: Sendable {
    /// Where an accepted response's body is saved, for a download (``LoadContext/destination``).
    var destination: URL?
    /// The status codes whose body goes to ``destination``; another status's body stays in memory for the error.
    var acceptableStatusCodes: Range<Int> = 200..<300
    /// Receives the transfer's progress.
    var progress: (@Sendable (TransferProgress) -> Void)?
    /// For a `GET` download, the request's URL and the partial file it resumes (`Downloading`); `nil` for a download
    /// that doesn't resume.
    var resume: Resume?

    /// The most bytes of a download's error body kept for ``Response/body``; the rest is dropped.
    static let errorBodyLimit = 1 << 20
}

/// A progress report due, with the closure it goes to; reported outside any lock.
struct DueProgress {
    let progress: TransferProgress
    let receiver: @Sendable (TransferProgress) -> Void

    func report() { receiver(progress) }
}

/// Counts a transfer's bytes and says when a report is due: about every hundredth of the expected bytes, and at most
/// once per 64 KiB, so a 1 GB transfer makes about a hundred reports rather than one per chunk.
struct ProgressCounter {
    let isUpload: Bool
    let expected: Int64?
    let receiver: (@Sendable (TransferProgress) -> Void)?
    private(set) var bytes: Int64 = 0
    private var reported: Int64 = -1

    /// A counter that starts at `start` bytes: the offset a resumed download goes on from.
    init(
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
    mutating func add(_ count: Int) -> DueProgress? {
        bytes += Int64(count)
        return bytes - reported >= step ? due() : nil
    }

    /// The last report, unless the bytes so far were reported already or there were none to expect.
    mutating func end() -> DueProgress? {
        bytes == reported || (bytes == 0 && expected == nil) ? nil : due()
    }

    private mutating func due() -> DueProgress? {
        guard let receiver else { return nil }
        reported = bytes
        return DueProgress(
            progress: TransferProgress(isUpload: isUpload, bytes: bytes, expectedBytes: expected), receiver: receiver)
    }
}
