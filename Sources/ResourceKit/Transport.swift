import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a request and returns the response: the one piece of ``Webservice`` that touches the network.
///
/// `URLSession` conforms. Conform your own type to stub the network in tests, to record requests, or to put
/// another HTTP client behind ``Webservice``:
///
/// ```swift
/// struct FixtureTransport: Transport {
///     var body: Data
///     func data(for request: URLRequest) async throws -> (Data, URLResponse) {
///         let url = request.url ?? baseURL
///         guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil) else {
///             throw URLError(.badServerResponse)
///         }
///         return (body, response)
///     }
/// }
/// let webservice = Webservice(transport: FixtureTransport(body: fixture))
/// ```
///
/// A transport should stop promptly when its task is cancelled, by throwing `CancellationError` or
/// `URLError(.cancelled)`.
public protocol Transport: Sendable {
    /// Sends `request` and returns the response body and the response.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response body and the response.
    /// - Throws: A `URLError` or any other error when no response could be obtained.
    func data(for request: URLRequest) async throws -> (Data, URLResponse)
}

extension URLSession: Transport {
    /// Sends `request` with this session, as `data(for:delegate:)` does with no delegate.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response body and the response.
    /// - Throws: The session's `URLError`.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await data(for: request, delegate: nil)
    }
}
