import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The path of every load after its timeout (`Timeout`): the web service's middleware, then the built-in layers, then
/// the resource's receiver (``LoadContext/receiver``), then the transport (`Sending`).
///
/// The path, step by step, is the numbered list in <doc:MiddlewareChain#The-pipeline>, whose names
/// `MiddlewareChainArticleTests` compares with ``layers(middleware:cache:limiter:)``.
struct Pipeline: Sendable {
    /// The path.
    let send: Middleware.Next

    /// The path, built once for a web service rather than once a load.
    init(
        middleware: [any Middleware],
        cache: ResponseCache?,
        limiter: LoadLimiter?,
        transport: any Transport
    ) {
        let sending = Sending(transport: transport)
        let transport: Middleware.Next = { request, context in try await sending.send(request, context: context) }
        // The resource's receiver takes each attempt's body, innermost.
        var next: Middleware.Next = { request, context in
            guard let receiver = context.receiver else { return try await transport(request, context) }
            return try await receiver.intercept(request, context: context, next: transport)
        }
        for layer in Self.layers(middleware: middleware, cache: cache, limiter: limiter).reversed() {
            next = { [next] request, context in try await layer.intercept(request, context: context, next: next) }
        }
        send = next
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
        layers.append(Observing())
        return layers
    }
}
