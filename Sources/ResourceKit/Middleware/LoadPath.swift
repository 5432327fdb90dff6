import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a middleware's `next` leads for a load: the rest of one web service's chain and its transport, with the
/// load's body limit, and whether the end of the chain takes the request's credentials off.
///
/// Loads share a response (``Deduplication``) only along the same path: only then would they send the same bytes
/// through the same transport. ``Webservice`` gives it to a ``PathAwareMiddleware`` when it builds its chain.
struct LoadPath: Hashable, Sendable {
    /// The identity of a web service's chain and transport: made anew when either is set, shared by its copies.
    final class Chain: Hashable, Sendable {
        static func == (lhs: Chain, rhs: Chain) -> Bool { lhs === rhs }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    let chain: Chain
    /// The load's body limit, which the transport enforces.
    var maxBodySize: Int? = nil
    /// Whether the request may carry credentials: `false` for a page on another origin (``Resource``'s
    /// `sendsCredentials`), whose request reaches the transport with safe header fields only and no cookies.
    var sendsCredentials = true
}

/// A middleware that needs to know where its `next` leads, which ``Webservice`` tells it: ``Deduplication``.
protocol PathAwareMiddleware: Middleware {
    /// Handles `request` as ``Middleware/intercept(_:next:)`` does, knowing that `next` leads along `path`.
    func intercept(
        _ request: URLRequest,
        along path: LoadPath,
        next: @escaping @Sendable (URLRequest) async throws -> (Data, ResponseHead)
    ) async throws -> (Data, ResponseHead)
}
