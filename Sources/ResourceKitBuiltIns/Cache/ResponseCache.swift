import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A cache of `GET` responses that a ``Webservice`` serves without the network: in memory, or in a directory that
/// outlives the process.
///
/// The server decides what may be kept, with `Cache-Control` and validators; responses are keyed by URL and the
/// request's header fields, so requests with different credentials don't share one. A resource's
/// ``Resource/cachePolicy`` decides how a load uses it. The rules are in <doc:Caching> and <doc:WorkingOffline>.
///
/// ```swift
/// let webservice = Webservice(cache: ResponseCache(byteLimit: 5_000_000))
/// ```
public final class ResponseCache: Sendable {
    /// The most bytes the cache holds; 0 when it was created with a limit below 0.
    let byteLimit: Int

    /// The bytes the stored responses take now, counted as for the `byteLimit` it was created with.
    public var byteCount: Int {
        get async { await store.byteCount }
    }

    /// The number of stored responses, fresh or stale.
    public var count: Int {
        get async { await store.count }
    }

    /// Where the responses are kept and the cache's work is done, on a serial Dispatch queue of its own.
    ///
    /// It goes with the cache, and cancels the background revalidations the cache owns then.
    let store: Store

    /// Creates an empty cache in memory that holds at most `byteLimit` bytes (0 or less stores nothing), dropping the
    /// least recently used responses to make room; `now` is the clock freshness is measured with, yours in tests.
    public init(byteLimit: Int, now: @escaping @Sendable () -> Date = { Date() }) {
        self.byteLimit = max(byteLimit, 0)
        store = Store(byteLimit: self.byteLimit, now: now, storage: MemoryStorage(byteLimit: self.byteLimit))
    }

    /// Opens the persistent cache in `directory`, creating it, that holds at most `byteLimit` bytes of files,
    /// dropping the least recently used responses, across launches, to make room.
    ///
    /// Only the index stays in memory; a body is read from disk when it answers. See <doc:WorkingOffline>.
    ///
    /// ```swift
    /// let cache = try ResponseCache(directory: cachesURL.appendingPathComponent("responses"), byteLimit: 50_000_000)
    /// ```
    ///
    /// - Throws: A `CocoaError` when the directory can't be created or read, or another cache has it open.
    public init(directory: URL, byteLimit: Int, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.byteLimit = max(byteLimit, 0)
        let storage = try DiskStorage(directory: directory, byteLimit: self.byteLimit)
        store = Store(byteLimit: self.byteLimit, now: now, storage: storage)
    }

    /// Creates a cache that keeps its responses in `storage`, such as a store a fleet of servers shares, which keeps
    /// them within a limit of its own; responses kept for one web service alone stay in memory, within `byteLimit`.
    ///
    /// ```swift
    /// let cache = ResponseCache(storage: SharedStore(client: redis))
    /// ```
    public init(
        storage: some CacheStorage, byteLimit: Int = 1 << 20, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.byteLimit = max(byteLimit, 0)
        // The app's storage keeps its entries within a limit of its own; the memory beside it, within `byteLimit`.
        store = Store(
            byteLimit: .max, now: now,
            storage: ScopedInMemory(shared: storage, scoped: MemoryStorage(byteLimit: self.byteLimit)))
    }

    /// Removes every stored response, from memory and disk: call it when the user signs out.
    ///
    /// - Throws: A `CocoaError` when a persistent cache's file can't be deleted; the cache then serves none of them.
    ///
    /// A response still on its way, such as a background revalidation's, is not stored when it arrives.
    public func removeAll() async throws {
        try await store.removeAll()
    }

    /// What the cache holds for `request` sent by `service`, fresh or stale, and the cache's generation for storing
    /// its response: see ``Store/lookup(_:service:)``.
    func lookup(_ request: Request, service: Webservice.Identity? = nil) async -> (found: Found?, generation: Int) {
        await store.lookup(request, service: service)
    }

    /// The stored response `found` for `request`, made fresh again by a `304`: see
    /// ``Store/revalidate(_:kept:with:generation:)``.
    func revalidate(_ request: Request, found: Found, with notModified: Response, generation: Int) async
        -> StoredResponse?
    {
        await store.revalidate(request, kept: found.keptFor, with: notModified, generation: generation)
    }

    /// Stores `response` for `request` if it may be stored: see ``Store/record(_:for:keptFor:generation:)``.
    func record(
        _ response: StoredResponse,
        for request: Request,
        keptFor: Webservice.Identity? = nil,
        generation: Int
    ) async {
        await store.record(response, for: request, keptFor: keptFor, generation: generation)
    }

    /// Whether the cache's work runs on its own queue: for tests.
    var runsOnItsQueue: Bool {
        get async { await store.runsOnItsQueue }
    }

    /// How many background revalidations are in flight: for tests.
    var revalidationCount: Int {
        get async { await store.revalidationCount }
    }
}

extension ResponseCache {
    /// The cache's state and work, isolated to a serial Dispatch queue of its own (off Swift's cooperative pool): a
    /// persistent cache waiting on its disk holds up no other task; see <doc:FilesOnDisk>.
    actor Store {
        /// The most bytes the cache holds.
        let byteLimit: Int

        /// The bytes the stored responses take now, counted as for the `byteLimit` it was created with.
        var byteCount: Int { storage.byteCount }

        /// The number of stored responses, fresh or stale.
        var count: Int { storage.count }

        /// Where the cache runs: a serial queue of its own, as a persistent cache's file I/O may wait on a disk.
        private let executor = QueueExecutor(label: "ResourceKit.ResponseCache")

        /// The executor the cache runs on: a serial Dispatch queue of its own, off Swift's cooperative pool.
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        /// Whether the cache's work runs on its own queue: for tests.
        var runsOnItsQueue: Bool { executor.isCurrent }

        private let now: @Sendable () -> Date
        private var storage: any CacheStorage
        /// The background revalidations in flight (`stale-while-revalidate`), by the key of the response each
        /// revalidates.
        private var revalidations: [Key: Task<Void, Never>] = [:]
        /// Counts the calls of ``removeAll()``: a response that a load asked for before the last one is not stored.
        private var generation = 0

        init(byteLimit: Int, now: @escaping @Sendable () -> Date, storage: any CacheStorage) {
            self.byteLimit = byteLimit
            self.now = now
            self.storage = storage
        }

        /// Removes every stored response, from memory and disk.
        func removeAll() throws {
            generation += 1
            try storage.removeAll()
        }

        /// What the cache holds for `request` sent by `service`, fresh or stale, and the cache's generation for
        /// storing its response.
        ///
        /// A response kept for `service` alone comes first (``Key/service``). The stored response is `nil` when the
        /// request doesn't read the cache or nothing is stored; finding one counts as a use.
        func lookup(_ request: Request, service: Webservice.Identity?) -> (found: Found?, generation: Int) {
            guard request.readsCache else { return (nil, generation) }
            if let service, keptForServices > 0, let found = found(request, keptFor: service) {
                return (found, generation)
            }
            return (found(request, keptFor: nil), generation)
        }

        /// The response stored for `request` under the key kept for `keptFor`, counted as a use.
        private func found(_ request: Request, keptFor: Webservice.Identity?) -> Found? {
            guard let key = Key(request, keptFor: keptFor), let entry = storage.entry(for: key) else { return nil }
            return Found(response: entry.response, age: age(of: entry), keptFor: keptFor)
        }

        /// The seconds since `entry` arrived, plus the `Age` it arrived with.
        private func age(of entry: Entry) -> TimeInterval {
            max(0, now().timeIntervalSince(entry.stored)) + TimeInterval(entry.response.initialAge)
        }

        /// The stored response for `request`, made fresh again by `notModified`, the server's `304 Not Modified` answer
        /// to its validators; `nil` when nothing is stored any more.
        ///
        /// The 304's header fields replace the stored ones (RFC 9111, section 4.3.4), so its `Cache-Control` sets the
        /// new lifetime.
        func revalidate(
            _ request: Request,
            kept keptFor: Webservice.Identity?,
            with notModified: Response,
            generation: Int
        ) -> StoredResponse? {
            guard generation == self.generation, let key = Key(request, keptFor: keptFor),
                var response = storage.entry(for: key)?.response
            else { return nil }
            let updates = notModified.headers.filter {
                !Self.bodyFields.contains(asciiLowercased($0.key)) && StoredResponse.isStorable(field: $0.key)
            }
            // One pass over each: a 304 of thousands of fields doesn't scan the stored ones once per field.
            let updated = Set(updates.keys.map(asciiLowercased))
            response.headers = response.headers.filter { !updated.contains(asciiLowercased($0.key)) }
            response.headers.merge(updates) { $1 }
            storage.remove(key)
            store(response, for: key)
            return response
        }

        /// The methods that change nothing on the server (RFC 9110, section 9.2.1), so leave the stored responses be.
        private static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

        /// The fields that describe the stored body rather than the response, which a 304 doesn't update.
        private static let bodyFields: Set<String> = ["content-length", "content-encoding", "transfer-encoding"]

        /// Stores `response` for `request` if it may be stored, and drops what it replaces or makes outdated.
        ///
        /// - Parameters:
        ///   - response: The response the transport returned.
        ///   - request: The request it answers.
        ///   - keptFor: The web service it is kept for alone, `nil` for any (``Key/service``).
        ///   - generation: The generation ``lookup(_:service:)`` gave the load: after a ``removeAll()`` since, nothing
        ///     is stored.
        func record(
            _ response: StoredResponse,
            for request: Request,
            keptFor: Webservice.Identity?,
            generation: Int
        ) {
            guard let key = Key(request, keptFor: keptFor) else {
                // An unsafe method that succeeded may have changed what a GET of the same URL returns; a safe one, such
                // as the `HEAD` that probes for the network, changed nothing (RFC 9111, section 4.4).
                if response.statusCode < 400, !Self.safeMethods.contains(request.method) {
                    storage.removeAll(url: request.url.absoluteString)
                }
                return
            }
            guard request.fillsCache, generation == self.generation else { return }
            // The newest response replaces the stored one; one that may not be stored outdates it when it says the
            // stored one is wrong (a `2xx` with `no-store`, a 404 or a 410), but a failure such as a 503 leaves it for
            // offline use.
            if response.isStorable || (200..<300).contains(response.statusCode)
                || [404, 410].contains(response.statusCode)
            {
                storage.remove(key)
                store(response, for: key)
            }
        }

        /// Stores `response` under `key` if it may be stored at all, making room for it.
        private func store(_ response: StoredResponse, for key: Key) {
            guard response.isStorable, key.byteCount + response.byteCount <= byteLimit else { return }
            storage.insert(Entry(response: response, stored: now()), for: key)
            if key.service != nil { keptForServices += 1 }
        }

        /// How many responses were ever kept for one web service alone: while there are none, a lookup looks for
        /// none.
        private var keptForServices = 0

        /// The most background revalidations in flight at once.
        ///
        /// A stale response that finds this many in flight answers without one.
        static let maxRevalidations = 4

        /// Revalidates `request`'s stored response in a task of the cache's own.
        ///
        /// Nothing happens when a revalidation of it is in flight already, or ``maxRevalidations`` are. `send` sends
        /// the conditional request, and its answer is kept as a load's would be; `revalidated` hears of a `304` that
        /// confirmed the stored response. The task holds no reference to the cache while it waits, and is cancelled
        /// when the cache is released: the directory of a persistent cache can be opened again at once.
        func revalidateInBackground(
            _ request: Request,
            found: Found,
            service: Webservice.Identity,
            generation: Int,
            hasValidators: Bool,
            send: @escaping @Sendable () async throws -> Response,
            revalidated: @escaping @Sendable () -> Void
        ) {
            guard let key = Key(request, keptFor: found.keptFor), revalidations[key] == nil,
                revalidations.count < Self.maxRevalidations
            else {
                return
            }
            revalidations[key] = Task { [weak self] in
                let response = try? await send()
                await self?.settle(
                    key, request, response, service: service, generation: generation, hasValidators: hasValidators
                ) {
                    revalidated()
                }
            }
        }

        /// Ends the background revalidation for `key`, keeping its `response`, if one arrived.
        private func settle(
            _ key: Key,
            _ request: Request,
            _ response: Response?,
            service: Webservice.Identity,
            generation: Int,
            hasValidators: Bool,
            revalidated: () -> Void
        ) {
            revalidations[key] = nil
            guard let response else { return }
            if response.statusCode == 304, hasValidators {
                if revalidate(request, kept: key.service, with: response, generation: generation) != nil {
                    revalidated()
                }
            } else if !Key.isAnsweredWithCookies(request, response), let stored = StoredResponse(response) {
                let keptFor = Key.keptFor(request, answeredBy: response, service: service)
                record(stored, for: request, keptFor: keptFor, generation: generation)
            }
        }

        /// How many background revalidations are in flight: for tests.
        var revalidationCount: Int { revalidations.count }

        deinit {
            for revalidation in revalidations.values { revalidation.cancel() }
        }
    }
}

extension ResponseCache {
    /// A stored response found for a request, with how old it is.
    struct Found: Sendable {
        /// The stored response.
        var response: StoredResponse
        /// Its age in seconds: the time since it arrived or was confirmed, plus the `Age` it arrived with.
        var age: TimeInterval
        /// The web service it is kept for alone, `nil` for any (``Key/service``).
        var keptFor: Webservice.Identity?

        /// Whether HTTP lets it answer without asking the server.
        var isFresh: Bool { age < response.freshnessLifetime }

        /// The seconds it is past its freshness lifetime, 0 while it is fresh.
        var staleness: TimeInterval { max(0, age - response.freshnessLifetime) }

        /// Whether the server's `stale-while-revalidate` lets it answer while it is revalidated in the background.
        var servableWhileRevalidating: Bool {
            response.cacheControl.staleWhileRevalidate.map { staleness <= TimeInterval($0) } ?? false
        }

        /// Whether the server's `stale-if-error` lets it answer when the server can't (RFC 5861).
        var servableIfError: Bool {
            response.cacheControl.staleIfError.map { staleness <= TimeInterval($0) } ?? false
        }
    }

    /// An HTTP response as the cache keeps it: a value, rebuilt into a ``Response`` when it is served.
    public struct StoredResponse: Sendable, Equatable {
        /// The URL that answered.
        public var url: URL
        /// The status code.
        public var statusCode: Int
        /// The header fields, without cookies.
        public var headers: [String: String]
        /// The whole body.
        public var body: Data

        /// A response as a storage of yours read it back.
        public init(url: URL, statusCode: Int, headers: [String: String], body: Data) {
            self.url = url
            self.statusCode = statusCode
            self.headers = headers
            self.body = body
        }

        /// Keeps the parts of `response` but its cookies, or returns `nil` when it has no URL or its body isn't whole.
        init?(_ response: Response) {
            // A stream's body is its caller's, read once: it is never stored.
            guard let body = response.body.data, let url = response.url else { return nil }
            self.url = url
            statusCode = response.statusCode
            headers = response.headers.filter { Self.isStorable(field: $0.key) }
            self.body = body
        }

        /// The fields never stored, in memory or on disk: a cache doesn't replay cookies.
        private static let unstoredFields: Set<String> = ["set-cookie", "set-cookie2"]

        /// Whether a field named `name` is kept in a stored response.
        static func isStorable(field name: String) -> Bool {
            !unstoredFields.contains(asciiLowercased(name))
        }

        /// The response to answer with.
        var response: Response {
            Response(statusCode: statusCode, headers: headers, body: body, url: url)
        }

        /// Whether the response may be stored at all: a `2xx` response without `no-store` or `Vary: *`.
        ///
        /// A response that is never fresh is stored too, stale at once: for revalidation, and for the policies that
        /// answer with a stored response whatever its age (<doc:WorkingOffline>).
        var isStorable: Bool {
            (200..<300).contains(statusCode) && !cacheControl.noStore && header("Vary")?.contains("*") != true
        }

        /// The seconds this response is fresh for, counted from its age: its `max-age`, or 0 with `no-cache` or
        /// without one.
        var freshnessLifetime: TimeInterval {
            cacheControl.noCache ? 0 : TimeInterval(cacheControl.maxAge ?? 0)
        }

        /// The `Age` it arrived with: the seconds it had spent in caches on the way.
        var initialAge: Int { header("Age").flatMap(CacheControl.seconds) ?? 0 }

        /// Its `Cache-Control` directives.
        var cacheControl: CacheControl { CacheControl(header("Cache-Control")) }

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
            headers.first { sameHeaderName($0.key, name) }?.value
        }
    }

    /// What a stored response is found by: the URL and the request's header fields but `Cache-Control`, their names
    /// in ASCII lowercase, as bytes, so that equal strings of different bytes (`"caf\u{E9}"`, `"cafe\u{301}"`) are
    /// different keys.
    public struct Key: Hashable, Sendable {
        /// The request's URL.
        public var url: String
        /// The request's header fields but `Cache-Control`: names in ASCII lowercase, names and values as UTF-8 bytes.
        public var headers: [[UInt8]: [UInt8]]
        /// The web service that alone is answered with the response, `nil` for any.
        ///
        /// It is the web service whose transport added credentials to the request, such as a session's configured
        /// `Authorization` (``Response/request``): the key can't tell that request from one sent with other
        /// credentials. Such a response is kept in memory only, never in a file or a storage of yours.
        public var service: Webservice.Identity?

        /// A key for `url` and `headers` (as ``headers`` holds them), for any web service: for a storage of yours that
        /// reads its keys back.
        public init(url: String, headers: [[UInt8]: [UInt8]]) {
            self.url = url
            self.headers = headers
        }

        /// The key for a `GET` request, or `nil` for any other method or a request without a URL.
        init?(_ request: Request, keptFor service: Webservice.Identity? = nil) {
            guard request.method == "GET" else { return nil }
            // A URL's text is ASCII: URL percent-encodes the rest.
            url = request.url.absoluteString
            headers = request.headerFields.keyBytes(excluding: "Cache-Control")
            self.service = service
        }

        /// `service` when the transport added to `request` a header field that may carry a credential (one that
        /// isn't safe to send anywhere), as `response`'s ``Response/request`` shows; otherwise `nil`.
        static func keptFor(_ request: Request, answeredBy response: Response, service: Webservice.Identity)
            -> Webservice.Identity?
        {
            guard let sent = response.request else { return nil }
            let added = sent.headerFields.contains { field in
                !isSafeHeader(field.name) && request.value(forHTTPHeaderField: field.name) == nil
            }
            return added ? service : nil
        }

        /// Whether the transport added cookies to `request`, as `response`'s ``Response/request`` shows.
        ///
        /// Such a response, to a cookie jar's cookies say, is never stored: no key made before the request went can
        /// stand for them, as a jar changes at any time, with a sign-out or any response's `Set-Cookie`.
        static func isAnsweredWithCookies(_ request: Request, _ response: Response) -> Bool {
            guard let sent = response.request else { return false }
            let cookies = { (request: Request) in request.headerFields.filter { sameHeaderName($0.name, "Cookie") } }
            return cookies(sent).map(\.value) != cookies(request).map(\.value)
        }

        /// The credentials of the request the key was made from (``Redaction/secrets(of:)``), which its response may
        /// echo: what a file on disk must not hold.
        var secrets: [String] {
            var fields: [String: String] = [:]
            for (name, value) in headers {
                fields[String(decoding: name, as: UTF8.self)] = String(decoding: value, as: UTF8.self)
            }
            return Redaction.secrets(url: URL(string: url), headers: fields)
        }

        /// The bytes of the URL and the header fields' text.
        var byteCount: Int {
            url.utf8.count + headers.reduce(0) { $0 + $1.key.count + $1.value.count }
        }
    }

    /// A stored response and when it arrived, or a `304` last confirmed it.
    public struct Entry: Sendable {
        /// The response.
        public var response: StoredResponse
        /// When it arrived, or a `304` last confirmed it: its age counts from here.
        public var stored: Date

        /// An entry as a storage of yours read it back.
        public init(response: StoredResponse, stored: Date) {
            self.response = response
            self.stored = stored
        }
    }
}

extension Request {
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
