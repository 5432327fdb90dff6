import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a body that arrives is read into besides memory: a download's file and its resume state, and the progress it
/// reports to (`ArrivingBody`).
struct Transfer: Sendable {
    /// Where an accepted response's body is saved, for a download (``LoadContext/destination``).
    var destination: URL?
    /// The status codes whose body goes to ``destination``; another status's body stays in memory for the error.
    var acceptableStatusCodes: any StatusCodeSet = 200..<300
    /// Receives the transfer's progress.
    var progress: (@Sendable (TransferProgress) -> Void)?
    /// For a `GET` download, the request's URL and the partial file it resumes (`Downloading`); `nil` for a download
    /// that doesn't resume.
    var resume: Resume?

    /// The most bytes of a download's error body kept for ``Response/body``; the rest is dropped.
    static let errorBodyLimit = 1 << 20
}
