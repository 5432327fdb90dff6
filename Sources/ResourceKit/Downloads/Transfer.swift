import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a load sends from disk, saves to disk and reports progress to: part of its ``LoadContext``.
struct Transfer: Sendable {
    /// Where an accepted response's body is saved, for a resource made with
    /// ``Resource/init(url:method:headers:downloadingTo:)``.
    var destination: URL?
    /// The status codes whose body goes to ``destination``; another status's body stays in memory for the error.
    var acceptableStatusCodes: Range<Int>
    /// Receives the transfer's progress.
    var progress: (@Sendable (TransferProgress) -> Void)?
    /// The download's file once its whole body arrived, until the load ends; `nil` without a ``destination``.
    let arrived: ArrivedFiles?
    /// For a `GET` download, the request's URL and the partial file it resumes, which `Resuming` sets for each
    /// attempt; `nil` for a download that doesn't resume.
    var resume: Resume?

    /// The transfer `resource` asks for, or `nil` when it sends and receives its body in memory without progress.
    ///
    /// Inlined into ``Webservice/load(_:)->A``, which has `Resource<A>`'s metadata at hand already: called, this generic
    /// function looks it up again, about 500 instructions a load.
    @inline(__always)
    init?<A>(of resource: Resource<A>) {
        guard resource.destination != nil || resource.progress != nil else { return nil }
        destination = resource.destination
        acceptableStatusCodes = resource.acceptableStatusCodes
        progress = resource.progress
        arrived = resource.destination == nil ? nil : ArrivedFiles()
    }

    /// Keeps `file`, a download's whole body, for the load to move into place once it has succeeded.
    func keep(_ file: ArrivedFile?) async {
        guard let file else { return }
        if let arrived {
            await arrived.keep(file)
        } else {
            file.remove()
        }
    }

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
