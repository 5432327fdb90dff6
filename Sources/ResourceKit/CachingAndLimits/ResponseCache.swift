import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An in-memory cache of `GET` responses that a ``Webservice`` serves, without the network, while they are fresh.
///
/// The server decides what may be kept, with `Cache-Control: max-age`; responses are keyed by URL and request header
/// fields, so one user's response is never served to another. The rules are in <doc:Caching>.
///
/// ```swift
/// let webservice = Webservice(cache: ResponseCache(byteLimit: 5_000_000))
/// ```
public actor ResponseCache {
    /// The most bytes the cache holds; 0 when it was created with a limit below 0.
    public nonisolated let byteLimit: Int

    /// The bytes the stored responses take now, counted as for ``byteLimit``.
    public private(set) var byteCount = 0

    /// The number of stored responses, fresh or stale.
    public var count: Int { entries.count }

    private let now: @Sendable () -> Date
    private var entries = RecencyList<Key, Entry>()

    /// Creates an empty cache that holds at most `byteLimit` bytes (0 or less stores nothing), dropping the least
    /// recently used responses to make room; `now` is the clock freshness is measured with, yours in tests.
    public init(byteLimit: Int, now: @escaping @Sendable () -> Date = { Date() }) {
        self.byteLimit = max(byteLimit, 0)
        self.now = now
    }

    /// Removes every stored response: call it when the user signs out.
    public func removeAll() {
        entries.removeAll()
        byteCount = 0
    }

    /// The fresh response stored for `request`, or `nil` when there is none or the request doesn't read the cache.
    ///
    /// A stale response found on the way is removed.
    ///
    /// - Parameter request: The request about to be sent.
    /// - Returns: The stored response.
    func response(for request: URLRequest) -> StoredResponse? {
        guard request.readsCache, let key = Key(request), let entry = entries[key] else { return nil }
        guard now() < entry.expiry else {
            remove(key)
            return nil
        }
        entries.use(key)
        return entry.response
    }

    /// Stores `response` for `request` if it may be stored, and drops what it replaces or makes outdated.
    ///
    /// - Parameters:
    ///   - response: The response the transport returned.
    ///   - request: The request it answers.
    func record(_ response: StoredResponse, for request: URLRequest) {
        guard let key = Key(request) else {
            // An unsafe method that succeeded may have changed what a GET of the same URL returns.
            if response.statusCode < 400 {
                for key in entries.keys.filter({ $0.url == request.url?.absoluteString }) {
                    remove(key)
                }
            }
            return
        }
        guard request.fillsCache else { return }
        // The newest response replaces the stored one, or, when it may not be stored, outdates it.
        remove(key)
        guard let lifetime = response.freshnessLifetime else { return }
        let cost = key.byteCount + response.byteCount
        guard cost <= byteLimit else { return }
        while byteCount + cost > byteLimit, let oldest = entries.leastRecentlyUsedKey {
            remove(oldest)
        }
        entries.insert(Entry(response: response, expiry: now() + lifetime, cost: cost), for: key)
        byteCount += cost
    }

    private func remove(_ key: Key) {
        if let entry = entries.removeValue(forKey: key) {
            byteCount -= entry.cost
        }
    }
}

extension ResponseCache {
    /// An HTTP response as the cache keeps it: a value, rebuilt into an `HTTPURLResponse` when it is served.
    struct StoredResponse: Sendable, Equatable {
        var url: URL
        var statusCode: Int
        var headers: [String: String]
        var body: Data

        /// Keeps the parts of `response`, or returns `nil` when it is not an HTTP response.
        ///
        /// - Parameters:
        ///   - body: The response body.
        ///   - response: The response the transport returned with it.
        init?(body: Data, response: URLResponse) {
            guard let http = response as? HTTPURLResponse, let url = http.url else { return nil }
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in http.allHeaderFields {
                headers[name] = value
            }
            self.url = url
            statusCode = http.statusCode
            self.headers = headers
            self.body = body
        }

        /// The response to hand to ``Resource/value(from:response:)``.
        var httpResponse: HTTPURLResponse? {
            HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
        }

        /// The seconds this response may be served from the cache, or `nil` when it must not be stored.
        var freshnessLifetime: TimeInterval? {
            let control = CacheControl(header("Cache-Control"))
            guard (200..<300).contains(statusCode), !control.noStore, !control.noCache, let maxAge = control.maxAge,
                header("Vary")?.contains("*") != true
            else { return nil }
            let lifetime = maxAge - (header("Age").flatMap(CacheControl.seconds) ?? 0)
            return lifetime > 0 ? TimeInterval(lifetime) : nil
        }

        /// The bytes of the body and the header fields' text.
        var byteCount: Int {
            body.count + headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        }

        private func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// What a stored response is found by: the URL and the request's header fields, names in lowercase.
    private struct Key: Hashable {
        var url: String
        var headers: [String: String]

        /// The key for a `GET` request, or `nil` for any other method or a request without a URL.
        init?(_ request: URLRequest) {
            guard (request.httpMethod ?? "GET") == "GET", let url = request.url else { return nil }
            self.url = url.absoluteString
            var headers: [String: String] = [:]
            for (name, value) in request.allHTTPHeaderFields ?? [:] where name.lowercased() != "cache-control" {
                headers[name.lowercased()] = value
            }
            self.headers = headers
        }

        /// The bytes of the URL and the header fields' text.
        var byteCount: Int {
            url.utf8.count + headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        }
    }

    private struct Entry {
        var response: StoredResponse
        var expiry: Date
        var cost: Int
    }
}

extension URLRequest {
    /// Whether a fresh cached response may answer this request: not when it asks for `no-cache` or `no-store`.
    fileprivate var readsCache: Bool {
        let control = CacheControl(value(forHTTPHeaderField: "Cache-Control"))
        return !control.noCache && !control.noStore
    }

    /// Whether this request's response may be stored: not when it asks for `no-store`.
    fileprivate var fillsCache: Bool {
        !CacheControl(value(forHTTPHeaderField: "Cache-Control")).noStore
    }
}
