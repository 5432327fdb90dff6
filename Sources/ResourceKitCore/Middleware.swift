import Foundation

/// A step every request of a ``Webservice`` passes through on its way to the transport, and every response on its
/// way back: the one mechanism for authentication, retries, de-duplication and your own cross-cutting concerns.
///
/// A middleware may change the request or the ``LoadContext``, call `next` (the rest of the pipeline, then the
/// transport) any number of times, and change or replace what comes back. Where it sits among the built-in layers
/// is in <doc:MiddlewareChain>.
///
/// ```swift
/// struct APIKey: Middleware {
///     var key: String
///     func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
///         var request = request
///         request.setValue(key, forHTTPHeaderField: "X-API-Key")
///         return try await next(request, context)
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// The rest of the pipeline after a middleware: it sends a request and returns the response.
    typealias Next = @Sendable (Request, LoadContext) async throws -> Response

    /// Handles `request`, usually by passing it, changed or not, to `next`.
    ///
    /// `next` throws `CancellationError` when the load is cancelled, and otherwise a ``WebserviceError``.
    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response
}

/// A middleware that keeps responses and answers loads from them, such as the cache's layer: a load whose
/// ``Resource/cachePolicy`` is ``CachePolicy/storedOnly`` fails at once, before any layer, on a web service that has
/// none (``WebserviceError/Reason/notStored``).
public protocol StoringMiddleware: Middleware {}
