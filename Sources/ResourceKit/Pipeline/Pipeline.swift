import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The path of every load, in the order the request travels it; the response comes back the same way.
///
/// 1. ``Webservice/load(_:)->A`` builds the request from the resource and makes its ``LoadContext``.
/// 2. The timeout (`Timeout`), when the resource has one: the whole pipeline runs within it.
/// 3. The web service's own ``Webservice/middleware``, the first one outermost.
/// 4. A load that may not carry credentials loses those a middleware added (`Uncredentialed`); then the cache
///    (`Caching`), after the middleware, so that a credential they add is part of its key.
/// 5. The limit on loads in flight (`Limiting`): only the exchange itself holds a place, never a wait for a
///    credential or a retry's delay.
/// 6. A `GET` download resumes its partial file (`Resuming`): each attempt that finds one asks for the rest with
///    `Range` and `If-Range`, and a response that can't resume it sends the request once more without them.
/// 7. With `DistributedTracing` among the middleware, a client span for each request handed to the transport
///    (`ClientSpan`), its trace context added to the request; then the observer (`Observing`), which hears of each
///    request handed to the transport, `Range` and the trace context included.
/// 8. The transport (`Sending`), whose errors are redacted once, here.
/// 9. The resource validates and parses the response.
///
/// See <doc:MiddlewareChain>.
struct Pipeline: Sendable {
    /// The path of a load whose body the web service reads whole, or into its file.
    let load: Middleware.Next
    /// The path of a stream's load: the same layers, the response returned at its head with its body unread.
    let stream: Middleware.Next

    /// The steps 3 to 8, built once for a web service rather than once a load.
    init(
        middleware: [any Middleware],
        cache: ResponseCache?,
        limiter: LoadLimiter?,
        transport: any Transport
    ) {
        var layers = middleware
        // Without middleware, no layer adds a credential a load may not carry.
        if !middleware.isEmpty { layers.append(Uncredentialed()) }
        if let cache { layers.append(Caching(cache: cache)) }
        if let limiter { layers.append(Limiting(limiter: limiter)) }
        layers.append(Resuming())
        #if Tracing
            if middleware.contains(where: { $0 is DistributedTracing }) { layers.append(ClientSpan()) }
        #endif
        layers.append(Observing())
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
}

/// The layer after the middleware that takes the credentials they added off a request whose load may carry none (a
/// page on another origin), before the cache keys it, the observer reports it or the transport sends it.
struct Uncredentialed: Middleware {
    func intercept(_ request: URLRequest, context: LoadContext, next: @escaping Next) async throws -> Response {
        try await next(context.sendsCredentials ? request : request.withoutCredentials, context)
    }
}
