import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An in-memory cache of `GET` responses that a ``Webservice`` serves, without the network, while they are fresh.
///
/// Give a web service a cache to opt in; copies of the web service share it. A response served from the cache
/// still goes through ``Resource/value(from:response:)``, so the parse runs and returns a new model each time.
///
/// ```swift
/// let webservice = Webservice(cache: ResponseCache(byteLimit: 5_000_000))
/// let episodes = try await webservice.load(Episode.all)  // from the network
/// let again = try await webservice.load(Episode.all)     // from memory, if the server allowed it
/// ```
///
/// The server decides what may be kept, with its `Cache-Control` header:
///
/// - Only responses with a `2xx` status to `GET` requests are stored, and only with `max-age=N`. They are fresh for
///   `N` seconds, less the response's `Age` (the time it already spent in caches on the way); after that the next
///   load sends the request again. Responses without `max-age` are not stored: the cache never guesses a lifetime
///   and ignores `Expires`.
/// - `no-store` responses are never stored. Neither are `no-cache` responses, which may only be served after
///   revalidating them with the server, something this cache doesn't do, nor responses with `Vary: *`.
/// - A request whose own header fields say `Cache-Control: no-cache` skips the cache and stores the fresh response
///   for later loads (use it to refresh); `Cache-Control: no-store` leaves the cache alone: it neither reads, fills
///   nor changes it.
/// - A new response to a `GET` replaces the one stored for the same request, or, when it may not be stored (an
///   error status, `no-store`, …), removes it.
/// - When a `POST`, `PUT`, `PATCH` or `DELETE` gets a response with a status below `400`, every response cached
///   for exactly its URL (query included) is dropped, so the next `GET` of that URL shows the change. Responses for
///   other URLs the change affects, such as the collection after a `DELETE` of one item or another page of it, stay
///   until they expire; remove them with ``removeAll()`` when that matters.
///
/// A response is stored under its URL and the request's header fields (except `Cache-Control`), so requests with
/// different `Authorization`, `Cookie`, `Accept` or API-key fields never share a response: one user's response is
/// never served to another. The fields a `URLSession` adds from its configuration's `httpAdditionalHeaders` are part
/// of the key too. Cookies a session adds from its cookie storage, and fields your own ``Transport`` adds, are not;
/// share a cache only among web services that send them alike. Files (`file:` URLs) are never cached.
///
/// The cache holds at most ``byteLimit`` bytes, counted as each response's body plus the text of its URL and its
/// request and response header fields. When a new response doesn't fit, the least recently used ones are dropped
/// to make room, each in constant time; a response larger than the whole limit is not stored. Two loads of the same
/// resource that miss at the same time both send their request.
public actor ResponseCache {
    /// The most bytes the cache holds; 0 when it was created with a limit below 0.
    public nonisolated let byteLimit: Int

    /// The bytes the stored responses take now, counted as for ``byteLimit``.
    public private(set) var byteCount = 0

    /// The number of stored responses, fresh or stale.
    public var count: Int { entries.count }

    private let now: @Sendable () -> Date
    private var entries = RecencyList<Key, Entry>()

    /// Creates an empty cache that holds at most `byteLimit` bytes.
    ///
    /// Pass `now` to control time in tests; freshness is measured with it.
    ///
    /// ```swift
    /// let cache = ResponseCache(byteLimit: 10_000_000)  // about 10 MB
    /// ```
    ///
    /// - Parameters:
    ///   - byteLimit: The most bytes to hold. A limit of 0 or less stores nothing.
    ///   - now: The clock that decides when a response was stored and when it is stale. Defaults to the system
    ///     clock.
    public init(byteLimit: Int, now: @escaping @Sendable () -> Date = { Date() }) {
        self.byteLimit = max(byteLimit, 0)
        self.now = now
    }

    /// Removes every stored response.
    ///
    /// Call it when the user signs out, or to make every next load go to the network.
    ///
    /// ```swift
    /// await cache.removeAll()
    /// ```
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
