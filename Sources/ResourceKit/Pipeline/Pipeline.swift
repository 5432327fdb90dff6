import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The path of every load after its timeout (`Timeout`): the web service's middleware, then the built-in layers, then
/// the transport (`Sending`).
///
/// The path, step by step, is the numbered list in <doc:MiddlewareChain#The-pipeline>, whose names
/// `MiddlewareChainArticleTests` compares with ``layers(middleware:cache:limiter:)``.
struct Pipeline: Sendable {
    /// The path of a load whose body the web service reads whole, or into its file.
    let load: Middleware.Next
    /// The path of a stream's load: the same layers, the response returned at its head with its body unread.
    let stream: Middleware.Next

    /// The path, built once for a web service rather than once a load.
    init(
        middleware: [any Middleware],
        cache: ResponseCache?,
        limiter: LoadLimiter?,
        transport: any Transport
    ) {
        let layers = Self.layers(middleware: middleware, cache: cache, limiter: limiter)
        func chain(_ sending: Sending) -> Middleware.Next {
            var next: Middleware.Next = { request, context in try await sending.send(request, context: context) }
            for layer in layers.reversed() {
                next = { [next] request, context in try await layer.intercept(request, context: context, next: next) }
            }
            return next
        }
        load = chain(Sending(transport: transport, readsBody: true))
        stream = chain(Sending(transport: transport, readsBody: false))
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
