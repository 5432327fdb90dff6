import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a middleware's `next` leads for a load: the rest of one web service's chain and its transport, with the
/// load's body limit.
///
/// Loads share a response (``Deduplication``) only along the same path: only then would they send the same bytes
/// through the same transport. ``Webservice`` gives it to a ``PathAwareMiddleware`` when it builds its chain.
struct LoadPath: Hashable, Sendable {
    /// The identity of a web service's chain and transport: made anew when either is set, shared by its copies.
    final class Chain: Sendable {}

    let chain: Chain
    /// The load's body limit, which the transport enforces.
    let maxBodySize: Int?

    static func == (lhs: LoadPath, rhs: LoadPath) -> Bool {
        lhs.chain === rhs.chain && lhs.maxBodySize == rhs.maxBodySize
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(chain))
        hasher.combine(maxBodySize)
    }
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
