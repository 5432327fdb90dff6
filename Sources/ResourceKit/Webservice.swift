import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads resources: the only asynchronous code in ResourceKit.
///
/// `load` builds the request with `URLRequest(resource:)`, sends it through the ``transport``, and hands the
/// response to ``Resource/value(from:response:)``, which requires an HTTP response with one of the resource's
/// ``Resource/acceptableStatusCodes`` and parses the body. Everything but the sending is synchronous and tested
/// without a network.
///
/// ```swift
/// let webservice = Webservice()
/// let episodes = try await webservice.load(Episode.all)
/// ```
///
/// Two things can answer a request instead of the transport, or hold it back:
///
/// - A ``cache`` serves fresh `GET` responses from memory.
/// - A ``limiter`` caps the requests in flight; further loads wait their turn.
///
/// The built-in network transports send only `http` and `https` URLs. To load bundled JSON or fixtures from `file:`
/// URLs, opt in with ``FileTransport``: `Webservice(transport: FileTransport())`.
///
/// A web service is a small value. Its cache and its limiter are reference types, shared by all its copies.
public struct Webservice: Sendable {
    /// Sends the requests: a `URLSession`, or any other ``Transport``.
    public var transport: any Transport

    /// The in-memory cache of `GET` responses, or `nil`, the default, to send every request.
    ///
    /// ```swift
    /// var webservice = Webservice()
    /// webservice.cache = ResponseCache(byteLimit: 5_000_000)
    /// ```
    public var cache: ResponseCache?

    /// The cap on requests in flight, or `nil`, the default, for no cap.
    ///
    /// Assign one limiter to several web services to cap their requests together:
    ///
    /// ```swift
    /// let limiter = LoadLimiter(maxConcurrentLoads: 4)
    /// var images = Webservice(configuration: .ephemeral)
    /// images.limiter = limiter
    /// ```
    public var limiter: LoadLimiter?

    /// Creates a web service that sends requests through ResourceKit's own shared `URLSession`.
    ///
    /// The session uses the default configuration and one rule `URLSession.shared` lacks: a redirect to another
    /// origin (scheme, host or port) keeps only header fields known to carry no credential (content negotiation,
    /// `User-Agent`, the body's `Content-Type`, …), so a server can't pass `Authorization`, cookies, API keys or
    /// tokens on to a third party. Linux's `URLSession` would otherwise forward them all.
    ///
    /// ```swift
    /// let webservice = Webservice(maxConcurrentLoads: 4, cache: ResponseCache(byteLimit: 5_000_000))
    /// ```
    ///
    /// - Parameters:
    ///   - maxConcurrentLoads: The most requests in flight at once, with a new ``LoadLimiter``; values below 1 mean
    ///     1. Defaults to `nil`, no cap.
    ///   - cache: The cache for `GET` responses. Defaults to `nil`, no cache.
    public init(maxConcurrentLoads: Int? = nil, cache: ResponseCache? = nil) {
        self.init(transport: RedirectSafeSession.shared, maxConcurrentLoads: maxConcurrentLoads, cache: cache)
    }

    /// Creates a web service with a new `URLSession` for `configuration`, with the redirect rule of
    /// ``init(maxConcurrentLoads:cache:)``.
    ///
    /// The session lives as long as this web service and its copies. Create the web service once and keep it,
    /// rather than one per request.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.default
    /// configuration.httpAdditionalHeaders = ["User-Agent": "SwiftTalk/1.0"]
    /// let webservice = Webservice(configuration: configuration)
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration, such as its idle timeout or extra headers.
    ///   - crossOriginSafeHeaders: Names of header fields of yours that carry no credential and may follow a
    ///     redirect to another origin, such as `X-Request-ID`; only standard harmless fields do otherwise.
    ///   - maxConcurrentLoads: The most requests in flight at once, with a new ``LoadLimiter``; values below 1 mean
    ///     1. Defaults to `nil`, no cap.
    ///   - cache: The cache for `GET` responses. Defaults to `nil`, no cache.
    public init(
        configuration: URLSessionConfiguration,
        crossOriginSafeHeaders: Set<String> = [],
        maxConcurrentLoads: Int? = nil,
        cache: ResponseCache? = nil
    ) {
        self.init(
            transport: RedirectSafeSession(
                configuration: configuration, crossOriginSafeHeaders: crossOriginSafeHeaders),
            maxConcurrentLoads: maxConcurrentLoads,
            cache: cache
        )
    }

    /// Creates a web service that sends requests through a `URLSession` you configured.
    ///
    /// Your session's delegate decides how redirects are followed. Linux's `URLSession` forwards every header,
    /// `Authorization` included, to the redirect's target unless the delegate removes it;
    /// ``init(maxConcurrentLoads:cache:)`` and ``init(configuration:crossOriginSafeHeaders:maxConcurrentLoads:cache:)`` do that for you.
    ///
    /// ```swift
    /// let webservice = Webservice(session: .shared)
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session to use, such as `URLSession.shared`.
    ///   - maxConcurrentLoads: The most requests in flight at once, with a new ``LoadLimiter``; values below 1 mean
    ///     1. Defaults to `nil`, no cap.
    ///   - cache: The cache for `GET` responses. Defaults to `nil`, no cache.
    public init(session: URLSession, maxConcurrentLoads: Int? = nil, cache: ResponseCache? = nil) {
        self.init(transport: session, maxConcurrentLoads: maxConcurrentLoads, cache: cache)
    }

    /// Creates a web service that sends requests through `transport`, such as a stub in tests.
    ///
    /// ```swift
    /// let webservice = Webservice(transport: FixtureTransport(body: fixture), maxConcurrentLoads: 2)
    /// ```
    ///
    /// - Parameters:
    ///   - transport: The transport to use.
    ///   - maxConcurrentLoads: The most requests in flight at once, with a new ``LoadLimiter``; values below 1 mean
    ///     1. Defaults to `nil`, no cap.
    ///   - cache: The cache for `GET` responses. Defaults to `nil`, no cache.
    public init(transport: any Transport, maxConcurrentLoads: Int? = nil, cache: ResponseCache? = nil) {
        self.transport = transport
        self.limiter = maxConcurrentLoads.map(LoadLimiter.init(maxConcurrentLoads:))
        self.cache = cache
    }

    /// Loads a resource: sends its request, validates the response, and parses the body.
    ///
    /// The work runs off the caller's actor, so a `@MainActor` caller never parses on the main actor.
    ///
    /// ```swift
    /// let episodes = try await webservice.load(Episode.all)
    /// ```
    ///
    /// The response comes from the ``cache``, when it holds a fresh response for the request, or else from the
    /// ``transport``, once the ``limiter`` lets the request go, within the resource's ``Resource/timeout``; that
    /// response is then offered to the ``cache``. A `file:` URL is read only by a ``FileTransport``; the other
    /// built-in transports refuse it with `URLError(.unsupportedURL)`.
    ///
    /// - Parameter resource: The resource to load.
    /// - Returns: The parsed model.
    /// - Throws: `CancellationError` when the calling task is cancelled, before or during the request or while it
    ///   waits for the ``limiter`` (a transport's `URLError(.cancelled)` is reported the same way on every
    ///   platform); otherwise a ``WebserviceError``: ``WebserviceError/transport(_:)`` when no response arrived
    ///   (with `URLError(.timedOut)` when the resource's ``Resource/timeout`` passed, `URLError(.unsupportedURL)` for
    ///   a URL the transport doesn't load, such as a `file:` URL for a network transport, and ``FileTransport``'s
    ///   errors), ``WebserviceError/bodyTooLarge(limit:)`` when the body is larger than the resource's
    ///   ``Resource/maxBodySize``, and the errors of ``Resource/value(from:response:)`` when one did.
    @concurrent
    public func load<A>(_ resource: Resource<A>) async throws -> A {
        try Task.checkCancellation()
        try validateHeaderFields(resource.headers)
        let built = URLRequest(resource: resource)
        // As the transport sends it: the header fields it adds, such as configured credentials, key the cache too.
        let request = (transport as? any PreparesRequests)?.prepared(built) ?? built
        let limit = resource.maxBodySize
        let (data, response) = try await response(to: request, within: resource.timeout, maxBodySize: limit)
        try Task.checkCancellation()
        if let limit, data.count > limit {
            throw WebserviceError.bodyTooLarge(limit: limit)
        }
        return try resource.value(from: data, response: response)
    }

    /// The response to `request`: a fresh cached response, or the transport's answer.
    private func response(
        to request: URLRequest,
        within timeout: TimeInterval?,
        maxBodySize: Int?
    ) async throws -> (Data, URLResponse) {
        if let cached = await cache?.response(for: request), let response = cached.httpResponse {
            return (cached.body, response)
        }
        let (data, response) = try await reportingTransportErrors(of: request) {
            try await send(request, within: timeout, maxBodySize: maxBodySize)
        }
        if let maxBodySize, data.count > maxBodySize {
            throw WebserviceError.bodyTooLarge(limit: maxBodySize)  // before the cache could keep it
        }
        if let cache, let stored = ResponseCache.StoredResponse(body: data, response: response) {
            await cache.record(stored, for: request)
        }
        return (data, response)
    }

    /// Runs `operation`, reporting its errors as ``WebserviceError/transport(_:)`` without `request`'s credentials,
    /// or as `CancellationError` when the task was cancelled; a ``WebserviceError`` such as
    /// ``WebserviceError/bodyTooLarge(limit:)`` stays as it is.
    ///
    /// A TLS or decoding failure that Linux `URLSession` reports as `URLError(.unknown)` gets the code Apple platforms
    /// use, such as `.serverCertificateUntrusted`.
    private func reportingTransportErrors<T>(of request: URLRequest, _ operation: () async throws -> T) async throws
        -> T
    {
        do {
            return try await operation()
        } catch {
            if error is CancellationError || error is WebserviceError { throw error }
            if Task.isCancelled { throw CancellationError() }
            let standardized = URLError.standardizing(error)
            throw WebserviceError.transport(Redaction.sanitized(standardized, removing: Redaction.secrets(of: request)))
        }
    }

    /// Sends `request` through the transport once the ``limiter``, if there is one, has a place for it, with the
    /// body limited to `maxBodySize` bytes, failing with `URLError(.timedOut)` if no response has fully arrived
    /// `timeout` seconds after the place was taken.
    ///
    /// The transport runs in a task of its own, which is cancelled when the deadline passes. `load` doesn't wait for
    /// that task to end, so the deadline holds even for a transport that ignores cancellation; its late answer is
    /// dropped. The place belongs to that task: it is given back when the transport has really returned.
    private func send(
        _ request: URLRequest,
        within timeout: TimeInterval?,
        maxBodySize: Int?
    ) async throws -> (Data, URLResponse) {
        let (transport, limiter) = (self.transport, self.limiter)
        try await limiter?.enter()
        // From here on, `exchange` must run exactly once: it gives the place back.
        let exchange: @Sendable () async -> Result<(Data, URLResponse), any Error> = {
            let result: Result<(Data, URLResponse), any Error>
            do {
                if let maxBodySize {
                    result = .success(try await transport.data(for: request, maxBodySize: maxBodySize))
                } else {
                    result = .success(try await transport.data(for: request))
                }
            } catch {
                result = .failure(error)
            }
            await limiter?.leave()
            return result
        }
        guard let timeout else {
            return try await exchange().get()
        }
        let (outcomes, outcome) = AsyncStream.makeStream(of: Result<(Data, URLResponse), any Error>.self)
        let sending = Task {
            outcome.yield(await exchange())
        }
        let deadline = Task {
            // NaN waits no time at all; the cap keeps the conversion to nanoseconds from overflowing.
            let seconds = timeout.isNaN ? 0 : min(max(timeout, 0), 1_000_000_000)
            guard (try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))) != nil else { return }
            let reason = "The resource's timeout of \(timeout) s passed before the response arrived."
            outcome.yield(.failure(URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: reason])))
        }
        defer {
            sending.cancel()
            deadline.cancel()
        }
        return try await withTaskCancellationHandler {
            var first = outcomes.makeAsyncIterator()
            guard let outcome = await first.next() else { throw CancellationError() }
            return try outcome.get()
        } onCancel: {
            outcome.finish()
        }
    }
}
