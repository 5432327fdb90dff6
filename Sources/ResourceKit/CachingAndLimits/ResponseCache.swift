import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An in-memory cache of `GET` responses that a ``Webservice`` serves, without the network, while they are fresh.
///
/// The server decides what may be kept, with `Cache-Control` and validators; responses are keyed by URL and the
/// request's header fields, so requests with different credentials don't share one. The rules, and what a middleware's
/// credential means for them, are in <doc:Caching>.
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

    /// What the cache holds for a request.
    enum Lookup: Sendable {
        /// A fresh response, which answers without the network.
        case fresh(StoredResponse)
        /// A stale response, and its validators: the header fields that ask the server whether it is still current.
        case stale(StoredResponse, validators: [String: String])
        /// Nothing usable.
        case miss
    }

    /// What the cache holds for `request`: nothing when the request doesn't read the cache.
    ///
    /// A stale response without validators found on the way is removed.
    ///
    /// - Parameter request: The request about to be sent.
    /// - Returns: The fresh response, the validators of the stale one, or ``Lookup/miss``.
    func lookup(_ request: URLRequest) -> Lookup {
        guard request.readsCache, let key = Key(request), let entry = entries[key] else { return .miss }
        guard now() < entry.expiry else {
            let validators = entry.response.validators
            if validators.isEmpty { remove(key) }
            return validators.isEmpty ? .miss : .stale(entry.response, validators: validators)
        }
        entries.use(key)
        return .fresh(entry.response)
    }

    /// The stored response for `request`, made fresh again by `notModified`, the server's `304 Not Modified` answer to
    /// its validators; `nil` when nothing is stored any more.
    ///
    /// The 304's header fields replace the stored ones (RFC 9111, section 4.3.4), so its `Cache-Control` sets the new
    /// lifetime.
    func revalidate(_ request: URLRequest, with notModified: URLResponse) -> StoredResponse? {
        guard let key = Key(request), var response = entries[key]?.response, let http = notModified as? HTTPURLResponse
        else { return nil }
        for (name, value) in http.headerFields where !Self.bodyFields.contains(name.lowercased()) {
            response.headers = response.headers.filter { $0.key.caseInsensitiveCompare(name) != .orderedSame }
            response.headers[name] = value
        }
        remove(key)
        store(response, for: key)
        return response
    }

    /// The fields that describe the stored body rather than the response, which a 304 doesn't update.
    private static let bodyFields: Set<String> = ["content-length", "content-encoding", "transfer-encoding"]

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
        store(response, for: key)
    }

    /// Stores `response` under `key` while the server allows, making room for it.
    private func store(_ response: StoredResponse, for key: Key) {
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

        /// Keeps the parts of `response`, or returns `nil` when it has no URL.
        init?(_ response: Response) {
            guard let url = response.url else { return nil }
            self.url = url
            statusCode = response.statusCode
            headers = response.headers
            body = response.body
        }

        /// The response to answer with.
        var response: Response {
            Response(statusCode: statusCode, headers: headers, body: body, url: url)
        }

        /// The seconds this response may be served from the cache, or `nil` when it must not be stored.
        ///
        /// A response that is never fresh (`no-cache`, or no positive `max-age`) is stored, stale at once, when it has
        /// validators to revalidate it with.
        var freshnessLifetime: TimeInterval? {
            let control = CacheControl(header("Cache-Control"))
            guard (200..<300).contains(statusCode), !control.noStore, header("Vary")?.contains("*") != true else {
                return nil
            }
            let lifetime =
                control.noCache ? 0 : (control.maxAge ?? 0) - (header("Age").flatMap(CacheControl.seconds) ?? 0)
            if lifetime > 0 { return TimeInterval(lifetime) }
            return validators.isEmpty ? nil : 0
        }

        /// The conditional header fields that ask the server whether this response is still current: `If-None-Match`
        /// with its `ETag` and `If-Modified-Since` with its `Last-Modified`, when it has them.
        var validators: [String: String] {
            var validators: [String: String] = [:]
            validators["If-None-Match"] = header("ETag").flatMap { isValidHeaderValue($0) ? $0 : nil }
            validators["If-Modified-Since"] = header("Last-Modified").flatMap { isValidHeaderValue($0) ? $0 : nil }
            return validators
        }

        /// The bytes of the body and the header fields' text.
        var byteCount: Int {
            body.count + headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        }

        private func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// What a stored response is found by: the URL and the request's header fields but `Cache-Control`, as bytes
    /// (see `keyBytes(excluding:)`).
    private struct Key: Hashable {
        var url: String
        var headers: [[UInt8]: [UInt8]]

        /// The key for a `GET` request, or `nil` for any other method or a request without a URL.
        init?(_ request: URLRequest) {
            guard (request.httpMethod ?? "GET") == "GET", let url = request.url else { return nil }
            // A URL's text is ASCII: URL percent-encodes the rest.
            self.url = url.absoluteString
            headers = (request.allHTTPHeaderFields ?? [:]).keyBytes(excluding: "Cache-Control")
        }

        /// The bytes of the URL and the header fields' text.
        var byteCount: Int {
            url.utf8.count + headers.reduce(0) { $0 + $1.key.count + $1.value.count }
        }
    }

    private struct Entry {
        var response: StoredResponse
        var expiry: Date
        var cost: Int
    }
}

extension URLRequest {
    /// Whether a fresh cached response may answer this request: not when it asks for `no-cache` or `no-store`, nor
    /// when it is conditional, as its sender wants the server's own answer to its validators.
    fileprivate var readsCache: Bool {
        let control = CacheControl(value(forHTTPHeaderField: "Cache-Control"))
        return !control.noCache && !control.noStore && !isConditional
    }

    /// Whether this request's response may be stored: not when it asks for `no-store` or is conditional.
    fileprivate var fillsCache: Bool {
        !CacheControl(value(forHTTPHeaderField: "Cache-Control")).noStore && !isConditional
    }

    private var isConditional: Bool {
        value(forHTTPHeaderField: "If-None-Match") != nil || value(forHTTPHeaderField: "If-Modified-Since") != nil
    }
}
