import Foundation

/// Sends a request and returns the response's head and its body as it arrives: the one piece of ``Webservice`` that
/// touches the network.
///
/// ``URLSessionTransport``, `AsyncHTTPClientTransport` and ``FileTransport`` conform; conform your own type to stub
/// the network in tests or to put another HTTP client behind ``Webservice`` (see <doc:Transports>). A transport sends
/// exactly the ``Request`` it is given, its ``Request/body`` included (a file's bytes for a file); everything else it
/// needs is in the ``LoadContext``: the progress to report, the body limit and the time left. It should stop
/// promptly when its task is cancelled.
///
/// A transport that adds header fields of its own, such as a session's configured `User-Agent`, says so by returning
/// the request it sent as the response's ``Response/request``: the cache keeps a response to a request it added
/// credentials to for its own web service alone (<doc:Caching#Keys-one-credentials-responses-are-kept-apart>). It
/// must add no credentials, such as cookies or a configured `Authorization`, to a request whose
/// ``LoadContext/sendsCredentials`` is `false` (a page another origin's server led to), or throw
/// `WebserviceError(.credentialsRefused)`.
///
/// ```swift
/// struct FixtureTransport: Transport {
///     var body: Data
///     func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
///         (Response(statusCode: 200), ResponseBody(body))
///     }
/// }
/// ```
public protocol Transport: Sendable {
    /// Sends `request` for the load `context` describes, and returns the response's head (its ``Response/body``
    /// empty) and its body as it arrives.
    ///
    /// The web service reads the body once, enforcing ``LoadContext/maxBodySize``, saving a download and reporting
    /// progress as the chunks arrive, or hands it to a stream's loop.
    func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody)
}
