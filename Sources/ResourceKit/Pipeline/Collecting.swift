import Foundation

/// The receiver of a load whose body stays in memory (``Resource/receiver``): each attempt's body is read whole, within
/// the load's ``LoadContext/maxBodySize``, its progress reported as it arrives, before the response goes back through
/// the middleware, which then get it whole (``ResponseBody/data``).
///
/// A body that breaks off fails the attempt, which ``RetryPolicy`` may retry; one past the limit, by its
/// `Content-Length` or its bytes, is ``WebserviceError/Reason/bodyTooLarge(limit:)``, and its transfer stops.
public struct Collecting: Middleware {
    /// Creates the receiver.
    public init() {}

    /// Sends `request` and reads the body of the response whole.
    public func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        var response = try await next(request, context)
        let (status, length) = (response.statusCode, Self.announcedLength(of: response, to: request))
        let (data, _) = try await Self.read(response.body, of: request, context: context) {
            // In memory: nothing of the head but its status and length, without a closure that copies it.
            try ArrivingBody(
                status: status, expectedLength: length, maxBodySize: context.maxBodySize,
                for: context.progress.map { Transfer(progress: $0) })
        }
        response.body = ResponseBody(data)
        return response
    }

    /// Reads `body`, the body of a response to `request`, into what `arriving` makes, and returns what it kept in
    /// memory, with the file it wrote, if any; its errors are the transport's, as `Sending` reports them.
    ///
    /// When `arriving` throws (a body over the limit by its `Content-Length`, or a download's file that can't be
    /// made), the body is dropped unread, which stops its transfer.
    static func read(
        _ body: ResponseBody,
        of request: Request,
        context: LoadContext,
        into arriving: () async throws -> ArrivingBody
    ) async throws -> (Data, ArrivedFile?) {
        do {
            var read = try await body.read(into: arriving())
            // A transport may answer after the load was cancelled or timed out: its body must not reach the
            // destination.
            guard !Task.isCancelled else {
                read.abandon()
                throw CancellationError()
            }
            let (data, due, file) = try read.finish()
            due?.report()
            return (data, file)
        } catch {
            let standardized = Sending.standardized(error, of: request)
            throw (standardized as? WebserviceError)?.counting(attempts: context.attempt) ?? standardized
        }
    }

    /// The length of the bytes that arrive, as `response` announces it: its `Content-Length`, unless it answers a
    /// `HEAD` (whose length counts the body a `GET` would have) or a `Content-Encoding` other than `identity` has the
    /// client inflate more bytes than it counts.
    ///
    /// The encoding is looked up only for a length: in an `HTTPURLResponse`, each lookup lowercases every name.
    static func announcedLength(of response: Response, to request: Request) -> Int64? {
        guard request.method != "HEAD", let length = response.contentLength else { return nil }
        if let encoding = response.value(forHTTPHeaderField: "Content-Encoding"),
            asciiLowercased(encoding) != "identity"
        {
            return nil
        }
        return length
    }
}
