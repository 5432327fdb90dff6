import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A step every request of a ``Webservice`` passes through on its way to the transport, and every response on its
/// way back: the one mechanism for authentication, retries, de-duplication and your own cross-cutting concerns.
///
/// A middleware may change the request, call `next` (the rest of the chain, then the transport) any number of times,
/// and change or replace what comes back. The order in which the cache, the limit, the timeout and the chain apply
/// is in <doc:MiddlewareChain>.
///
/// ```swift
/// struct APIKey: Middleware {
///     var key: String
///     func intercept(
///         _ request: URLRequest, next: @escaping @Sendable (URLRequest) async throws -> (Data, ResponseHead)
///     ) async throws -> (Data, ResponseHead) {
///         var request = request
///         request.setValue(key, forHTTPHeaderField: "X-API-Key")
///         return try await next(request)
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// Handles `request`, usually by passing it, changed or not, to `next`.
    ///
    /// `next` throws `CancellationError` when the load is cancelled, and otherwise a ``WebserviceError``.
    func intercept(
        _ request: URLRequest,
        next: @escaping @Sendable (URLRequest) async throws -> (Data, ResponseHead)
    ) async throws -> (Data, ResponseHead)
}
