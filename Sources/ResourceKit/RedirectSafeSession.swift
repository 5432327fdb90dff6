import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `URLSession` transport that keeps credentials from following a redirect to another origin.
///
/// Browsers and curl drop `Authorization` when a redirect leaves the origin; Linux's `URLSession` forwards every
/// header of the original request. The session's delegate removes every credential header (see
/// `isCredentialHeader(_:)`) whenever the new request's origin differs from the original request's. (A per-task
/// delegate would not do: Linux never calls it.)
///
/// `URLSession` adds a configuration's `httpAdditionalHeaders` to each request after that delegate has run, so
/// credentials among them would reach the other origin anyway. This transport takes them out of the configuration
/// and sets them on each request instead, where the delegate sees them.
final class RedirectSafeSession: Transport {
    /// The session behind ``Webservice/init(maxConcurrentLoads:cache:)``.
    static let shared = RedirectSafeSession(configuration: .default)

    private let session: URLSession
    /// The credential headers of the configuration's `httpAdditionalHeaders`, sent with each request instead.
    private let credentials: [String: String]

    init(configuration: URLSessionConfiguration) {
        let configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
        var additional = configuration.httpAdditionalHeaders ?? [:]
        var credentials: [String: String] = [:]
        for case (let name as String, let value) in additional where isCredentialHeader(name) {
            credentials[name] = value as? String ?? String(describing: value)
            additional[name] = nil
        }
        configuration.httpAdditionalHeaders = additional
        self.credentials = credentials
        session = URLSession(configuration: configuration, delegate: RedirectGuard(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await session.data(for: prepared(request))
    }

    func data(for request: URLRequest, maxBodySize: Int) async throws -> (Data, URLResponse) {
        try await session.data(for: prepared(request), maxBodySize: maxBodySize)
    }

    /// The request as this transport sends it: with the configuration's credential headers that it doesn't set
    /// itself.
    ///
    /// ``Webservice`` keys its cache with it (see `PreparesRequests`); sending a prepared request again adds nothing.
    func prepared(_ request: URLRequest) -> URLRequest {
        var request = request
        for (name, value) in credentials where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }
}

/// The session delegate that strips credential headers from cross-origin redirects.
private final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(request.redirected(from: task.originalRequest))
    }
}
