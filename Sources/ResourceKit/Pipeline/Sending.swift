import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The end of the pipeline: hands the request to the transport and makes one ``Response`` of what comes back.
///
/// The body is read here, the same
/// way for every transport: its limit enforced and a download saved as the chunks arrive, its progress reported.
/// A transport's error becomes ``WebserviceError/Reason/transport(_:)`` here, without the credentials of the request
/// as sent (with those a middleware such as ``Authentication`` added, which only this layer sees), and counts the
/// attempts; the web service names the request on its way out (`Webservice.reported(_:of:)`).
struct Sending: Sendable {
    let transport: any Transport
    /// Whether the body is read here; a stream's is returned unread, for its loop.
    let readsBody: Bool

    func send(_ request: Request, context: LoadContext) async throws -> Response {
        context.deadline?.progress.sent(attempt: context.attempt)
        var response: Response
        do {
            // The head is read as a constant and moved into `response` once read: a copy of a `Response` costs
            // hundreds of instructions.
            let (head, body) = try await transport.send(request, context: context)
            if !readsBody {
                response = head
                response.stream = body
            } else {
                let data = try await Self.read(body, of: head, to: request, context: context)
                response = head
                response.body = data
            }
        } catch {
            let standardized = Self.standardized(error, of: request)
            throw (standardized as? WebserviceError)?.counting(attempts: context.attempt) ?? standardized
        }
        if response.request == nil { response.request = request }
        response.attempts = context.attempt
        // A `206` answers a `Range`: to a download that asked for none, it is part of a file, never the file.
        if context.transfer?.destination != nil, response.statusCode == 206,
            request.value(forHTTPHeaderField: "Range") == nil
        {
            throw WebserviceError(.unacceptableStatus(response))
        }
        return response
    }

    /// The whole of `body`, the body of `head`, the response to `request`, in memory; a download's accepted body goes
    /// to its file instead, which the load moves into place once it has succeeded.
    private static func read(_ body: ResponseBody, of head: Response, to request: Request, context: LoadContext)
        async throws -> Data
    {
        // A `HEAD`'s Content-Length counts the body a `GET` would have.
        let length = request.method == "HEAD" ? nil : announcedLength(of: head)
        let arriving: ArrivingBody
        let (maxBodySize, transfer) = (context.maxBodySize, context.transfer)
        // Only a download's body depends on whether a range was asked for (`ArrivingBody`).
        let ranged = transfer?.destination != nil && request.value(forHTTPHeaderField: "Range") != nil
        // Over the limit by its Content-Length, or a download's file that can't be made: the body is dropped unread,
        // which stops its transfer.
        if transfer?.destination == nil {
            // In memory: nothing of the head but its status and length, without a closure that copies it.
            arriving = try ArrivingBody(
                status: head.statusCode, expectedLength: length, maxBodySize: maxBodySize, for: transfer)
        } else {
            // A download's file is opened off the cooperative pool: it is in a directory others may write.
            arriving = try await offCooperativePool {
                try ArrivingBody(
                    status: head.statusCode, ranged: ranged, expectedLength: length, maxBodySize: maxBodySize,
                    for: transfer, head: head)
            }
        }
        var read = try await body.read(into: arriving)
        // A transport may answer after the load was cancelled or timed out: its body must not reach the destination.
        guard !Task.isCancelled else {
            read.abandon()
            throw CancellationError()
        }
        let (data, due, file) = try read.finish()
        due?.report()
        await context.transfer?.keep(file)
        return data
    }

    /// The length of the bytes that arrive, as `head` announces it: its `Content-Length`, unless a `Content-Encoding`
    /// other than `identity` has the client inflate more bytes than it counts.
    ///
    /// The encoding is looked up only for a length: in an `HTTPURLResponse`, each lookup lowercases every name.
    private static func announcedLength(of head: Response) -> Int64? {
        guard let length = head.contentLength else { return nil }
        if let encoding = head.value(forHTTPHeaderField: "Content-Encoding"), asciiLowercased(encoding) != "identity" {
            return nil
        }
        return length
    }

    /// A transport's `error` as the layers before this one get it, without naming `request`.
    ///
    /// It is ``WebserviceError/Reason/transport(_:)`` without `request`'s credentials, or `CancellationError` when
    /// the task was cancelled; a ``WebserviceError`` stays as it is. `Webservice.reported(_:of:)` names the request,
    /// once.
    ///
    /// A TLS or decoding failure that Linux `URLSession` reports as `URLError(.unknown)` gets the code Apple platforms
    /// use, such as `.serverCertificateUntrusted`.
    static func standardized(_ error: any Error, of request: Request) -> any Error {
        if error is CancellationError || error is ResumeRefused || error is WebserviceError { return error }
        if Task.isCancelled { return CancellationError() }
        let standardized = URLError.standardizing(error)
        return WebserviceError(.transport(Redaction.sanitized(standardized, removing: Redaction.secrets(of: request))))
    }
}
