import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads resources: the one asynchronous API of ResourceKit.
///
/// It asks its ``transport`` for the bytes, then validates and parses them with the resource's synchronous
/// functions. A `Webservice` is a small value; make one and share it. See <doc:LoadingResources>.
///
/// ```swift
/// let webservice = Webservice()
/// let episodes = try await webservice.load(Episode.all)
/// ```
public struct Webservice: Sendable {
    /// The transport that sends requests.
    public var transport: any Transport {
        didSet {
            (headTransport, addedHeaders) = Self.fastPaths(for: transport)
            rebuildChain()
        }
    }
    /// The cache that serves responses the server allowed to be reused, or `nil` for none; see <doc:Caching>.
    public var cache: ResponseCache?
    /// The steps every request passes through on its way to the transport, the first one outermost; see
    /// <doc:MiddlewareChain>.
    public var middleware: [any Middleware] {
        didSet { rebuildChain() }
    }
    /// Receives an event for each request sent, response received, failure, retry, credential refresh and cache
    /// answer, or `nil` for none; see <doc:Observability>.
    public var observer: (@Sendable (WebserviceEvent) -> Void)?
    /// The limit on loads in flight at once, when one was set.
    var limiter: LoadLimiter?
    /// ``transport`` when it answers with a ``ResponseHead``.
    private var headTransport: (any HeadTransport)?
    /// The header fields ``transport`` adds to requests that don't set them.
    private var addedHeaders: [String: String]
    /// The identity of ``middleware`` and ``transport`` together, for the ``LoadPath`` of each load.
    private var chainID = LoadPath.Chain()
    /// The ``middleware`` in front of the transport, for a resource without a body limit: built once, not per load.
    private var chain: @Sendable (URLRequest) async throws -> (Data, ResponseHead)

    /// Creates a web service that sends requests with `transport`.
    ///
    /// - Parameters:
    ///   - transport: Sends requests; ResourceKit's shared ``URLSessionTransport`` unless you pass one.
    ///   - maxConcurrentLoads: At most this many loads in flight at once; the others wait in order. `nil` sets no limit.
    ///   - cache: A ``ResponseCache`` that serves responses again while the server allows; `nil` caches nothing.
    ///   - middleware: The steps every request passes through, such as ``RetryPolicy`` and ``Authentication``.
    ///   - observer: Receives a ``WebserviceEvent`` for each thing that happens during a load.
    public init(
        transport: any Transport = URLSessionTransport.shared,
        maxConcurrentLoads: Int? = nil,
        cache: ResponseCache? = nil,
        middleware: [any Middleware] = [],
        observer: (@Sendable (WebserviceEvent) -> Void)? = nil
    ) {
        self.transport = transport
        self.limiter = maxConcurrentLoads.map(LoadLimiter.init(maxConcurrentLoads:))
        self.cache = cache
        self.middleware = middleware
        self.observer = observer
        (headTransport, addedHeaders) = Self.fastPaths(for: transport)
        chain = Self.chain(middleware, to: transport, headTransport, along: LoadPath(chain: chainID, maxBodySize: nil))
    }

    /// Builds ``chain`` for the current ``middleware`` and ``transport``, as a chain of its own: no load before the
    /// change shares a response with one after it.
    private mutating func rebuildChain() {
        chainID = LoadPath.Chain()
        chain = Self.chain(middleware, to: transport, headTransport, along: LoadPath(chain: chainID, maxBodySize: nil))
    }

    /// What ``load(_:)`` needs to know of `transport`, found once rather than with a dynamic cast per load.
    private static func fastPaths(for transport: any Transport) -> ((any HeadTransport)?, [String: String]) {
        (transport as? any HeadTransport, (transport as? URLSessionTransport)?.addedHeaders ?? [:])
    }

    /// Creates a web service that sends requests through `session` as it is; see ``URLSessionTransport/init(session:)``.
    public init(session: URLSession) {
        self.init(transport: URLSessionTransport(session: session))
    }

    /// Loads a resource: sends its request, validates the response and parses the body, off the caller's actor.
    ///
    /// It throws `CancellationError` when the calling task is cancelled, and otherwise a ``WebserviceError``; the order
    /// of cache, limit, timeout, middleware and transport is in <doc:MiddlewareChain#Where-the-chain-sits>.
    ///
    /// ```swift
    /// let episodes = try await webservice.load(Episode.all)
    /// ```
    @concurrent
    public func load<A>(_ resource: Resource<A>) async throws -> A {
        // A load inside a middleware (fetching a token, say) reports to its own web service's observer, or to none.
        guard observer != nil || WebserviceEvent.observer != nil else { return try await loadObserved(resource) }
        return try await WebserviceEvent.$observer.withValue(observer) { try await loadObserved(resource) }
    }

    /// ``load(_:)`` with ``WebserviceEvent/observer`` bound.
    private func loadObserved<A>(_ resource: Resource<A>) async throws -> A {
        try Task.checkCancellation()
        try validateHeaderFields(resource.headers)
        // As the transport sends it: the header fields it adds, such as configured credentials, key the cache too.
        var request = URLRequest(resource: resource, addingHeaders: addedHeaders)
        let limit = resource.maxBodySize
        let path = LoadPath(chain: chainID, maxBodySize: limit, sendsCredentials: resource.sendsCredentials)
        if !path.sendsCredentials {
            try refuseTransportCredentials(for: request.url)
            request = request.withoutCredentials
        }
        let (data, head): (Data, ResponseHead)
        let transfer = Transfer(of: resource)
        do {
            if transfer != nil || Transfer.chain != nil || Transfer.current != nil {
                // Bound to `nil` too when a load in a middleware (fetching a token, say) would inherit an outer one.
                (data, head) = try await Transfer.$chain.withValue(transfer) {
                    try await Transfer.$current.withValue(nil) {
                        // A download's body is on disk, not in memory: the cache neither answers nor keeps it.
                        try await response(
                            to: request, within: resource.timeout, along: path,
                            cache: transfer?.destination == nil ? cache : nil)
                    }
                }
            } else {
                (data, head) = try await response(to: request, within: resource.timeout, along: path, cache: cache)
            }
            try Task.checkCancellation()
            if let limit, data.count > limit {
                throw WebserviceError.bodyTooLarge(limit: limit)
            }
        } catch {
            await transfer?.arrived?.discard()
            throw error
        }
        do {
            // The load succeeded: a download's file takes the destination's place, before the parse that may read it.
            try await transfer?.arrived?.commit()
        } catch {
            throw Self.reported(error, of: request)
        }
        return try resource.value(from: data, head: head)
    }

    /// Throws, before a request for `url` without credentials is sent, when the transport would add credentials of
    /// its own that it can't leave out: those of a caller's session, or cookies on Linux (``URLSessionTransport``).
    private func refuseTransportCredentials(for url: URL?) throws(WebserviceError) {
        guard let url, (transport as? URLSessionTransport)?.addsOwnCredentials(to: url) == true else { return }
        let reason =
            "The request goes to another origin than the one the resource names, and the transport's URLSession adds "
            + "credentials to every request (its configuration's header fields or cookies); it was not sent."
        throw .transport(URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason]))
    }

    /// The response to `request`: a fresh cached response, a stale one the server confirmed, or the transport's answer.
    private func response(
        to request: URLRequest,
        within timeout: TimeInterval?,
        along path: LoadPath,
        cache: ResponseCache?
    ) async throws -> (Data, ResponseHead) {
        let maxBodySize = path.maxBodySize
        var sent = request
        var stale: ResponseCache.StoredResponse?
        if let cache {
            switch await cache.lookup(request) {
            case .fresh(let stored):
                if let response = stored.httpResponse {
                    WebserviceEvent.report(.cacheHit, for: request)
                    Self.reportCached(stored.body)
                    return (stored.body, ResponseHead(response))
                }
            case .stale(let response, let validators):
                for (name, value) in validators { sent.setValue(value, forHTTPHeaderField: name) }
                stale = response
            case .miss: break
            }
        }
        let (data, head): (Data, ResponseHead)
        do {
            (data, head) = try await send(sent, within: timeout, along: path)
        } catch {
            throw Self.reported(error, of: sent)
        }
        guard let cache else { return (data, head) }
        // The response the 304 confirms: as the cache updated it, or as it was if the cache dropped it meanwhile.
        if let stale, head.statusCode == 304 {
            let stored = await cache.revalidate(request, with: head.response()) ?? stale
            guard let response = stored.httpResponse else { throw WebserviceError.nonHTTPResponse(body: stored.body) }
            WebserviceEvent.report(.revalidated, for: request)
            Self.reportCached(stored.body)
            return (stored.body, ResponseHead(response))
        }
        if let maxBodySize, data.count > maxBodySize {
            throw WebserviceError.bodyTooLarge(limit: maxBodySize)  // before the cache could keep it
        }
        if let stored = ResponseCache.StoredResponse(body: data, response: head.response()) {
            await cache.record(stored, for: request)
        }
        return (data, head)
    }

    /// Reports the whole of `body`, which came from the cache, to the progress of the load's transfer, if it has one:
    /// its closure hears of the body's end however the body came.
    private static func reportCached(_ body: Data) {
        let bytes = Int64(body.count)
        Transfer.chain?.progress?(TransferProgress(direction: .download, bytes: bytes, expectedBytes: bytes))
    }

    /// A transport's `error` as ``load(_:)`` reports it: ``WebserviceError/transport(_:)`` without `request`'s
    /// credentials, or `CancellationError` when the task was cancelled; a ``WebserviceError`` such as
    /// ``WebserviceError/bodyTooLarge(limit:)`` stays as it is.
    ///
    /// A TLS or decoding failure that Linux `URLSession` reports as `URLError(.unknown)` gets the code Apple platforms
    /// use, such as `.serverCertificateUntrusted`.
    private static func reported(_ error: any Error, of request: URLRequest) -> any Error {
        if error is CancellationError || error is WebserviceError { return error }
        if Task.isCancelled { return CancellationError() }
        let standardized = URLError.standardizing(error)
        return WebserviceError.transport(Redaction.sanitized(standardized, removing: Redaction.secrets(of: request)))
    }

    /// Sends `request` through the ``middleware`` and the transport along `path` once the ``limiter``, if there is
    /// one, has a place for it, failing with `URLError(.timedOut)` if no response has fully arrived `timeout` seconds
    /// after the place was taken.
    ///
    /// The chain runs in a task of its own, which is cancelled when the deadline passes. `load` doesn't wait for
    /// that task to end, so the deadline holds even for a transport that ignores cancellation; its late answer is
    /// dropped. The place belongs to that task: it is given back when the chain has really returned.
    private func send(
        _ request: URLRequest,
        within timeout: TimeInterval?,
        along path: LoadPath
    ) async throws -> (Data, ResponseHead) {
        let (transport, headTransport, maxBodySize) = (self.transport, self.headTransport, path.maxBodySize)
        // A credential provider's own load (a token request, say) takes no place: the loads waiting for the credential
        // may hold every one.
        let limiter = self.limiter == nil || Authentication.isFetchingCredential ? nil : self.limiter
        guard limiter != nil || timeout != nil || !middleware.isEmpty || observer != nil else {
            return try await Self.transfer(request, through: transport, headTransport, maxBodySize: maxBodySize)
        }
        let chain =
            maxBodySize == nil && path.sendsCredentials
            ? self.chain : Self.chain(middleware, to: transport, headTransport, along: path)
        guard limiter != nil || timeout != nil else {
            return try await chain(request)
        }
        try await limiter?.enter()
        // From here on, `exchange` must run exactly once: it gives the place back.
        let exchange: @Sendable () async -> Result<(Data, ResponseHead), any Error> = { [chain] in
            let result: Result<(Data, ResponseHead), any Error>
            do {
                result = .success(try await chain(request))
            } catch {
                result = .failure(error)
            }
            await limiter?.leave()
            return result
        }
        guard let timeout else {
            return try await exchange().get()
        }
        let (outcomes, outcome) = AsyncStream.makeStream(of: Result<(Data, ResponseHead), any Error>.self)
        let wait = Uptime.nanoseconds(timeout)
        let sending = Task { [end = Uptime.now() + wait] in
            outcome.yield(await Self.$deadline.withValue(end) { await exchange() })
        }
        let deadline = Task {
            guard (try? await Task.sleep(nanoseconds: wait)) != nil else { return }
            let reason = "The resource's timeout of \(timeout) s passed before the response arrived."
            outcome.yield(.failure(URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: reason])))
        }
        defer {
            sending.cancel()
            deadline.cancel()
        }
        return try await firstOutcome(of: outcomes, outcome)
    }

    /// `middleware` in front of `transport`: the function that sends a request through them along `path`, taking off
    /// the credentials middleware may have added when the path sends none.
    private static func chain(
        _ middleware: [any Middleware],
        to transport: any Transport,
        _ headTransport: (any HeadTransport)?,
        along path: LoadPath
    ) -> @Sendable (URLRequest) async throws -> (Data, ResponseHead) {
        let (maxBodySize, sendsCredentials) = (path.maxBodySize, path.sendsCredentials)
        var chain: @Sendable (URLRequest) async throws -> (Data, ResponseHead) = { request in
            try await observedTransfer(
                sendsCredentials ? request : request.withoutCredentials, through: transport, headTransport,
                maxBodySize: maxBodySize)
        }
        for layer in middleware.reversed() {
            if let layer = layer as? any PathAwareMiddleware {
                chain = { [chain] request in try await layer.intercept(request, along: path, next: chain) }
            } else {
                chain = { [chain] request in try await layer.intercept(request, next: chain) }
            }
        }
        return chain
    }

    /// When the timeout of the load whose chain is running passes, a reading of ``Uptime``, for middleware such as
    /// ``RetryPolicy`` that must not start a wait the load can't finish.
    @TaskLocal static var deadline: UInt64?

    /// ``transfer(_:through:_:maxBodySize:)`` at the end of the middleware chain: reports what happened to the
    /// observer, and throws errors as ``load(_:)`` does, so middleware sees the same errors as its caller.
    private static func observedTransfer(
        _ request: URLRequest,
        through transport: any Transport,
        _ headTransport: (any HeadTransport)?,
        maxBodySize: Int?
    ) async throws -> (Data, ResponseHead) {
        guard let observer = WebserviceEvent.observer else {
            do {
                return try await transfer(request, through: transport, headTransport, maxBodySize: maxBodySize)
            } catch {
                throw reported(error, of: request)
            }
        }
        observer(WebserviceEvent(.sent, request: request))
        let start = Uptime.now()
        do {
            let (data, head) = try await transfer(request, through: transport, headTransport, maxBodySize: maxBodySize)
            let duration = Uptime.seconds(since: start)
            observer(
                WebserviceEvent(
                    .received(statusCode: head.statusCode, bytes: data.count, duration: duration), request: request))
            return (data, head)
        } catch {
            let reported = reported(error, of: request)
            if !(reported is CancellationError) {
                observer(WebserviceEvent(.failed(reported, duration: Uptime.seconds(since: start)), request: request))
            }
            throw reported
        }
    }

    /// Sends `request` through `transport` (as `headTransport` when it is one), with the body limited to
    /// `maxBodySize` bytes when there is a limit; a transport that can't stream a ``Transfer`` gets the upload in
    /// memory, and its body is saved afterwards.
    private static func transfer(
        _ request: URLRequest,
        through transport: any Transport,
        _ headTransport: (any HeadTransport)?,
        maxBodySize: Int?
    ) async throws -> (Data, ResponseHead) {
        if let transfer = Transfer.chain {
            guard transport is any TransfersFiles else {
                return try await transfer.buffered(request, maxBodySize: maxBodySize) { request in
                    try await send(request, through: transport, headTransport, maxBodySize: maxBodySize)
                }
            }
            return try await Transfer.$current.withValue(transfer) {
                try await send(request, through: transport, headTransport, maxBodySize: maxBodySize)
            }
        }
        return try await send(request, through: transport, headTransport, maxBodySize: maxBodySize)
    }

    /// Sends `request` through `transport` (as `headTransport` when it is one), with the body limited to
    /// `maxBodySize` bytes when there is a limit; the response's head keeps the request, whose credentials errors
    /// then leave out.
    private static func send(
        _ request: URLRequest,
        through transport: any Transport,
        _ headTransport: (any HeadTransport)?,
        maxBodySize: Int?
    ) async throws -> (Data, ResponseHead) {
        var (data, head): (Data, ResponseHead)
        if let headTransport {
            (data, head) = try await headTransport.head(for: request, maxBodySize: maxBodySize)
        } else {
            let (body, response) =
                if let maxBodySize {
                    try await transport.data(for: request, maxBodySize: maxBodySize)
                } else {
                    try await transport.data(for: request)
                }
            (data, head) = (body, ResponseHead(response))
        }
        head.request = request
        return (data, head)
    }
}
