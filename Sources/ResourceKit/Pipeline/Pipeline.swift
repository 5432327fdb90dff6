import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The path of every load after its timeout (`Timeout`): the web service's middleware, then the built-in layers, then
/// the transport (`Sending`).
///
/// The path, step by step, is the numbered list in <doc:MiddlewareChain#The-pipeline>, whose names
/// `MiddlewareChainArticleTests` compares with ``layers(middleware:cache:limiter:)``.
enum Pipeline {
    /// The path as one function, built once for a web service rather than once a load.
    static func build(
        middleware: [any Middleware],
        cache: ResponseCache?,
        limiter: LoadLimiter?,
        transport: any Transport
    ) -> Middleware.Next {
        let sending = Sending(transport: transport)
        var next: Middleware.Next = { request, context in try await sending.send(request, context: context) }
        for layer in layers(middleware: middleware, cache: cache, limiter: limiter).reversed() {
            next = { [next] request, context in try await layer.intercept(request, context: context, next: next) }
        }
        return next
    }

    /// The layers before the transport, in the order a request passes them: `middleware`, first outermost, then the
    /// built-in ones that the web service's parts need.
    static func layers(middleware: [any Middleware], cache: ResponseCache?, limiter: LoadLimiter?) -> [any Middleware] {
        var layers = middleware
        // Without middleware, no layer adds a credential a load may not carry.
        if !middleware.isEmpty { layers.append(Uncredentialed()) }
        if let cache { layers.append(Caching(cache: cache)) }
        if let limiter { layers.append(Limiting(limiter: limiter)) }
        layers.append(Resuming())
        #if Tracing
            layers.append(ClientSpan())
        #endif
        layers.append(Observing())
        return layers
    }
}
