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
/// A transport that adds credentials of its own, such as cookies or a configured `Authorization`, must add none to a
/// request whose ``LoadContext/sendsCredentials`` is `false` (a page another origin's server led to), or throw
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

    /// The header fields the transport adds to each request that doesn't set them itself, such as a session's
    /// `User-Agent`: ``Webservice`` sets them on the requests it builds, so that they key its cache, and takes them
    /// off a request that may carry no credentials. The default is none.
    var additionalHeaderFields: [String: String] { get }
}

extension Transport {
    /// None.
    public var additionalHeaderFields: [String: String] { [:] }
}
