import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
    import Synchronization
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

    /// Sends `request` and returns the response, giving up once the body is larger than `maxBodySize` bytes.
    ///
    /// ``Webservice/load(_:)`` calls it for a resource with a ``Resource/maxBodySize``. The default implementation
    /// calls ``data(for:)`` and leaves the size check to `load`; implement it when your transport can stop reading
    /// early, as `URLSession` and `AsyncHTTPClientTransport` do.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - maxBodySize: The largest body to read, in bytes.
    /// - Returns: The response body and the response.
    /// - Throws: ``WebserviceError/bodyTooLarge(limit:)`` when the body is larger than `maxBodySize`; otherwise the
    ///   errors of ``data(for:)``.
    func data(for request: URLRequest, maxBodySize: Int) async throws -> (Data, URLResponse)
}

extension Transport {
    /// Sends `request` with ``data(for:)``; ``Webservice/load(_:)`` then checks the body's size.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - maxBodySize: The largest body to accept, in bytes; not enforced here.
    /// - Returns: The response body and the response.
    /// - Throws: The errors of ``data(for:)``.
    public func data(for request: URLRequest, maxBodySize: Int) async throws -> (Data, URLResponse) {
        try await data(for: request)
    }
}

extension URLSession: Transport {
    /// Sends `request` with this session, as `data(for:delegate:)` does with no delegate.
    ///
    /// Only `http` and `https` URLs are sent: a `file:`, `data:` or `ftp:` URL, which `URLSession` would otherwise
    /// load, perhaps taken from a server's response, is refused. Read files with ``FileTransport``.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response body and the response.
    /// - Throws: `URLError(.unsupportedURL)` for a URL that is not `http` or `https`; otherwise the session's
    ///   `URLError`.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try request.requireHTTP()
        return try await data(for: request, delegate: nil)
    }

    /// Sends `request` with this session, cancelling the task as soon as the response's `Content-Length` or the
    /// bytes received pass `maxBodySize`.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - maxBodySize: The largest body to read, in bytes.
    /// - Returns: The response body and the response.
    /// - Throws: ``WebserviceError/bodyTooLarge(limit:)`` when the body is larger; otherwise the errors of
    ///   ``data(for:)``.
    public func data(for request: URLRequest, maxBodySize: Int) async throws -> (Data, URLResponse) {
        try request.requireHTTP()
        let limiter = BodySizeLimiter(maxBodySize: maxBodySize)
        do {
            return try await data(for: request, delegate: limiter)
        } catch let error as URLError where error.code == .cancelled && !Task.isCancelled {
            // Nothing but the limiter cancels the task while the caller's task goes on.
            throw WebserviceError.bodyTooLarge(limit: maxBodySize)
        }
    }
}

/// A task delegate that cancels a data task whose body grows past a limit.
private final class BodySizeLimiter: NSObject, URLSessionDataDelegate, Sendable {
    let maxBodySize: Int
    #if canImport(FoundationNetworking)
        /// The bytes received so far: Linux's `URLSessionTask` leaves `countOfBytesReceived` at zero.
        private let received = Mutex(0)
    #endif

    init(maxBodySize: Int) {
        self.maxBodySize = maxBodySize
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard response.expectedContentLength <= Int64(maxBodySize) else {
            // Linux ignores the `.cancel` disposition; cancelling the task works everywhere.
            dataTask.cancel()
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        #if canImport(FoundationNetworking)
            let received = self.received.withLock { received in
                received += data.count
                return Int64(received)
            }
        #else
            let received = dataTask.countOfBytesReceived
        #endif
        if received > Int64(maxBodySize) {
            dataTask.cancel()
        }
    }
}

extension URLRequest {
    /// Whether the request is for an `http` or `https` URL: the only ones ResourceKit's network transports send.
    var isHTTP: Bool {
        ["http", "https"].contains(url?.scheme?.lowercased())
    }

    /// Throws `URLError(.unsupportedURL)` unless the request is for an `http` or `https` URL.
    func requireHTTP() throws {
        guard isHTTP else {
            let reason = "Only http and https URLs are sent; use FileTransport to read file URLs."
            throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason])
        }
    }
}
