import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `URLSession` transport that keeps credentials from following a redirect to another origin.
///
/// Browsers and curl drop `Authorization` when a redirect leaves the origin; Linux's `URLSession` forwards every
/// header of the original request. The session's delegate removes the credential headers whenever the new
/// request's origin differs from the original request's. (A per-task delegate would not do: Linux never calls it.)
final class RedirectSafeSession: Transport {
    /// The session behind ``Webservice/init(maxConcurrentLoads:cache:)``.
    static let shared = RedirectSafeSession(configuration: .default)

    /// Headers that carry the caller's credentials for the original origin.
    static let credentialHeaders = ["Authorization", "Cookie"]

    private let session: URLSession

    init(configuration: URLSessionConfiguration) {
        session = URLSession(configuration: configuration, delegate: RedirectGuard(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await session.data(for: request)
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
        completionHandler(Self.redirect(request, from: task.originalRequest))
    }

    /// The request to follow: `request` without credential headers unless it stays on `original`'s origin.
    static func redirect(_ request: URLRequest, from original: URLRequest?) -> URLRequest {
        if let target = request.url, let source = original?.url, target.hasSameOrigin(as: source) {
            return request
        }
        var stripped = request
        for name in RedirectSafeSession.credentialHeaders {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }
}

extension URL {
    /// Whether both URLs have the same scheme, host and port (a missing port means the scheme's default).
    fileprivate func hasSameOrigin(as other: URL) -> Bool {
        scheme?.lowercased() == other.scheme?.lowercased() && host?.lowercased() == other.host?.lowercased()
            && effectivePort == other.effectivePort
    }

    private var effectivePort: Int? {
        port ?? ["http": 80, "https": 443][scheme?.lowercased() ?? ""]
    }
}
