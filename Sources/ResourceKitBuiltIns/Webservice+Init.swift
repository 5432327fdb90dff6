import Foundation
import ResourceKitCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Webservice {
    /// Creates a web service that sends requests with `transport`.
    ///
    /// ```swift
    /// let webservice = Webservice()
    /// let episodes = try await webservice.load(Episode.all)
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: The URL that resources with a relative URL are resolved against, such as the staging or the
    ///     production server's; `nil` when every resource is absolute.
    ///   - transport: Sends requests; ResourceKit's shared ``URLSessionTransport`` unless you pass one.
    ///   - maxConcurrentLoads: At most this many loads in flight at once; the others wait in order. `nil` sets no limit.
    ///   - cache: A ``ResponseCache`` that serves responses again while the server allows; `nil` caches nothing.
    ///   - middleware: The steps every request passes through, such as ``RetryPolicy`` and ``Authentication``.
    ///   - observer: Receives a ``WebserviceEvent`` for each thing that happens during a load.
    public init(
        baseURL: URL? = nil,
        transport: any Transport = URLSessionTransport.shared,
        maxConcurrentLoads: Int? = nil,
        cache: ResponseCache? = nil,
        middleware: [any Middleware] = [],
        observer: (@Sendable (WebserviceEvent) -> Void)? = nil
    ) {
        self.init(
            baseURL: baseURL,
            transport: transport,
            layers: Self.layers(middleware: middleware, cache: cache, maxConcurrentLoads: maxConcurrentLoads),
            observer: observer)
    }

    /// Creates a web service that sends requests through `session` as it is; see ``URLSessionTransport/init(session:)``.
    public init(baseURL: URL? = nil, session: URLSession) {
        self.init(baseURL: baseURL, transport: URLSessionTransport(session: session))
    }

    /// The layers of a web service with `middleware`, `cache` and `maxConcurrentLoads`, in the order a request passes
    /// them (<doc:MiddlewareChain#The-pipeline>): the middleware, first outermost, then the built-in layers that the
    /// web service's parts need.
    static func layers(middleware: [any Middleware], cache: ResponseCache?, maxConcurrentLoads: Int?)
        -> [any Middleware]
    {
        var layers = middleware
        // Without middleware, no layer adds a credential a load may not carry.
        if !middleware.isEmpty { layers.append(Uncredentialed()) }
        if let cache { layers.append(Caching(cache: cache)) }
        if let maxConcurrentLoads {
            layers.append(Limiting(limiter: LoadLimiter(maxConcurrentLoads: maxConcurrentLoads)))
        }
        layers.append(Resuming())
        return layers
    }

    /// The cache that serves responses the server allowed to be reused, or `nil` for none; see <doc:Caching>.
    var cache: ResponseCache? {
        layers.lazy.compactMap { ($0 as? Caching)?.cache }.first
    }

    /// The limit on loads in flight at once, when one was set.
    var limiter: LoadLimiter? {
        layers.lazy.compactMap { ($0 as? Limiting)?.limiter }.first
    }
}
