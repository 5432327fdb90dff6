import Foundation

/// The path of every load after its timeout (`Timeout`): the web service's layers, then the resource's receiver
/// (``LoadContext/receiver``), then the transport (`Sending`).
///
/// The path, step by step, is the numbered list in <doc:MiddlewareChain#The-pipeline>, whose names
/// `MiddlewareChainArticleTests` compares with a web service's layers.
struct Pipeline: Sendable {
    /// The path.
    let send: Middleware.Next

    /// The path, built once for a web service rather than once a load.
    init(layers: [any Middleware], transport: any Transport) {
        let sending = Sending(transport: transport)
        let transport: Middleware.Next = { request, context in try await sending.send(request, context: context) }
        // The resource's receiver takes each attempt's body, innermost.
        var next: Middleware.Next = { request, context in
            guard let receiver = context.receiver else { return try await transport(request, context) }
            return try await receiver.intercept(request, context: context, next: transport)
        }
        for layer in layers.reversed() {
            next = { [next] request, context in try await layer.intercept(request, context: context, next: next) }
        }
        send = next
    }
}
