import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pipeline's layer that resumes a `GET` download from its partial file: each attempt that finds one sends
/// `Range: bytes=N-` and `If-Range`, so the observer sees them, and a retry resumes where the last attempt broke off.
///
/// It sits just before the observer. A load that isn't a download passes through after one check. A download that
/// doesn't find a partial file of the same URL is sent as it is, and may leave one when its body breaks off. A
/// `206` that resumes the file reaches the middleware and the resource as `200`, the whole body it completes, with the
/// whole length as its `Content-Length` and no `Content-Range`; a response that can't resume it (a `416`, or a `206`
/// that doesn't fit) drops the partial file and the request is sent once more without `Range`. The rules are in <doc:TransferringFiles#Resuming>.
struct Resuming: Middleware {
    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        guard let destination = context.destination else { return try await next(request, context) }
        guard request.method == "GET", request.value(forHTTPHeaderField: "Range") == nil else {
            return try await next(request, context)
        }
        let url = request.url.absoluteString
        // Off the cooperative pool: the record and the partial file are in a directory others may write.
        guard let found = try await offCooperativePool({ Resume.found(for: destination, url: url) }) else {
            return try await next(request, context)
        }
        var ranged = request
        ranged.setValue("bytes=\(found.offset)-", forHTTPHeaderField: "Range")
        ranged.setValue(found.validator, forHTTPHeaderField: "If-Range")
        // A `Range` counts the bytes of the encoded representation, which a client that inflates never sees.
        ranged.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        do {
            var response = try await next(ranged, context)
            if response.statusCode == 206 { Self.complete(&response) }
            return response
        } catch is ResumeRefused {
            return try await next(request, context)
        }
    }

    /// Makes the `206` that resumed a download the `200` of the whole file it completed: without `Content-Range`, and
    /// with the whole length, which `Resume/file(for:to:accepted:)` required it to name, as its `Content-Length`.
    private static func complete(_ response: inout Response) {
        let total = response.value(forHTTPHeaderField: "Content-Range").flatMap(ContentRange.init)?.total
        response.updateFields { fields in
            fields.removeAll { sameHeaderName($0.name, "Content-Range") || sameHeaderName($0.name, "Content-Length") }
            if let total { fields.append(HeaderField(name: "Content-Length", value: String(total))) }
        }
        response.statusCode = 200
    }
}
