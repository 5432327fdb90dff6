import Foundation
internal import ResourceKitSupport

/// The end of the pipeline: hands the request to the transport and makes one ``Response`` of what comes back, its body
/// still arriving, for the resource's ``LoadContext/receiver`` to read.
///
/// A transport's error becomes ``WebserviceError/Reason/transport(_:)`` here, without the credentials of the request
/// as sent (with those a middleware such as ``Authentication`` added, which only this layer and the receiver see), and
/// counts the attempts; the web service names the request on its way out (`Webservice.reported(_:of:)`).
struct Sending: Sendable {
    let transport: any Transport

    func send(_ request: Request, context: LoadContext) async throws -> Response {
        // A load that may use only a stored response, which no layer answered (a `StoringMiddleware` that passed it
        // on), never reaches the network.
        if context.cachePolicy == .storedOnly { throw WebserviceError(.notStored) }
        context.deadline?.progress.sent(attempt: context.attempt)
        var response: Response
        do {
            // The head is read as a constant and moved into `response` once read: a copy of a `Response` costs
            // hundreds of instructions.
            let (head, body) = try await transport.send(request, context: context)
            response = head
            // Its chunks' errors as the layers before this one get them, redacted against the request as the
            // transport sent it: with the credentials it added of its own too.
            let sent = head.request ?? request
            response.body = body.mappingErrors { [attempt = context.attempt] error in
                Self.standardized(error, of: sent, attempt: attempt)
            }
        } catch {
            throw Self.standardized(error, of: request, attempt: context.attempt)
        }
        if response.request == nil { response.request = request }
        response.attempts = context.attempt
        return response
    }

    /// ``standardized(_:of:)``, counted as the failure of `attempt`.
    private static func standardized(_ error: any Error, of request: Request, attempt: Int) -> any Error {
        let standardized = standardized(error, of: request)
        return (standardized as? WebserviceError)?.counting(attempts: attempt) ?? standardized
    }

    /// A transport's `error` as the layers before this one get it, without naming `request`.
    ///
    /// It is ``WebserviceError/Reason/transport(_:)`` without `request`'s credentials, or `CancellationError` when
    /// the task was cancelled; a ``WebserviceError`` stays as it is. `Webservice.reported(_:of:)` names the request,
    /// once.
    static func standardized(_ error: any Error, of request: Request) -> any Error {
        if error is CancellationError || error is WebserviceError { return error }
        if Task.isCancelled { return CancellationError() }
        return WebserviceError(.transport(Redaction.sanitized(error, removing: request.secrets)))
    }
}
