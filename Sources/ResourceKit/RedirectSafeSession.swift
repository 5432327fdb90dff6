import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `URLSession` transport that keeps credentials from following a redirect to another origin.
///
/// Browsers and curl drop `Authorization` when a redirect leaves the origin; Linux's `URLSession` forwards every
/// header of the original request. The session's delegate keeps only the safe header fields (see
/// `isSafeHeader(_:extra:)`) whenever the new request's origin differs from the original request's. (A per-task
/// delegate would not do: Linux never calls it.)
///
/// `URLSession` adds a configuration's `httpAdditionalHeaders` to each request after that delegate has run, so
/// credentials among them would reach the other origin anyway. This transport takes them out of the configuration
/// and sets them on each request instead, where the delegate sees them, with a default `User-Agent`.
final class RedirectSafeSession: Transport {
    /// The session behind ``Webservice/init(maxConcurrentLoads:cache:)``.
    static let shared = RedirectSafeSession(configuration: .default)

    private let session: URLSession
    /// The header fields sent with each request that doesn't set them itself: the configuration's
    /// `httpAdditionalHeaders` and a default `User-Agent`.
    private let addedHeaders: [String: String]

    /// Creates a session for `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration; it is copied, not changed.
    ///   - crossOriginSafeHeaders: Header names besides the built-in safe ones that may follow a redirect to another
    ///     origin.
    init(configuration: URLSessionConfiguration, crossOriginSafeHeaders: Set<String> = []) {
        let configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
        var added = ["User-Agent": defaultUserAgent]
        for case (let name as String, let value) in configuration.httpAdditionalHeaders ?? [:] {
            added = added.filter { $0.key.caseInsensitiveCompare(name) != .orderedSame }
            added[name] = value as? String ?? String(describing: value)
        }
        configuration.httpAdditionalHeaders = nil
        addedHeaders = added
        session = URLSession(
            configuration: configuration,
            delegate: RedirectGuard(extraSafeHeaders: Set(crossOriginSafeHeaders.map { $0.lowercased() })),
            delegateQueue: nil
        )
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

    /// The request as this transport sends it: with the header fields it adds that `request` doesn't set itself.
    ///
    /// ``Webservice`` keys its cache with it (see `PreparesRequests`); sending a prepared request again adds nothing.
    func prepared(_ request: URLRequest) -> URLRequest {
        var request = request
        for (name, value) in addedHeaders where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }
}

/// The session delegate that keeps only safe header fields on cross-origin redirects.
private final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    /// Header names, lowercased, that may reach another origin besides the built-in safe ones.
    let extraSafeHeaders: Set<String>

    init(extraSafeHeaders: Set<String>) {
        self.extraSafeHeaders = extraSafeHeaders
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(request.redirected(from: task.originalRequest, extraSafeHeaders: extraSafeHeaders))
    }
}
