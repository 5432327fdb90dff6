import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a request and returns the response: the one piece of ``Webservice`` that touches the network.
///
/// ``URLSessionTransport``, `AsyncHTTPClientTransport` and ``FileTransport`` conform; conform your own type to stub
/// the network in tests or to put another HTTP client behind ``Webservice`` (see <doc:Transports>). A transport
/// should stop promptly when its task is cancelled.
///
/// ```swift
/// struct FixtureTransport: Transport {
///     var body: Data
///     func data(for request: URLRequest) async throws -> (Data, URLResponse) {
///         (body, HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!)
///     }
/// }
/// ```
public protocol Transport: Sendable {
    /// Sends `request` and returns the response body and the response, or throws when no response could be
    /// obtained.
    func data(for request: URLRequest) async throws -> (Data, URLResponse)

    /// Sends `request` and returns the response, giving up once the body is larger than `maxBodySize` bytes.
    ///
    /// ``Webservice/load(_:)`` calls it for a resource with a ``Resource/maxBodySize``; implement it when your
    /// transport can stop reading early, and throw ``WebserviceError/bodyTooLarge(limit:)``.
    func data(for request: URLRequest, maxBodySize: Int) async throws -> (Data, URLResponse)
}

extension Transport {
    /// Sends `request` with ``data(for:)``; ``Webservice/load(_:)`` then checks the body's size.
    public func data(for request: URLRequest, maxBodySize: Int) async throws -> (Data, URLResponse) {
        try await data(for: request)
    }
}

/// A ``Transport`` that ``Webservice`` hands the whole ``LoadContext``: ResourceKit's own, which then stream a
/// download to its file and an upload from its file with progress, stop at the body limit, build no `URLResponse`
/// nobody reads, and add no header field of their own.
protocol HeadTransport: Transport {
    /// Sends `request` for the load `context` describes.
    func response(to request: URLRequest, context: LoadContext) async throws -> Response
}
