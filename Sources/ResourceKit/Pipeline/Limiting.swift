import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pipeline's limit on loads in flight: a request waits for a place, in order, and gives it back when the
/// exchange has really ended.
///
/// It sits after the middleware and the cache: a load waiting for a credential, or for a retry's delay, holds no
/// place, so a credential provider's own load never waits behind the loads that wait for it.
struct Limiting: Middleware {
    let limiter: LoadLimiter

    func intercept(_ request: URLRequest, context: LoadContext, next: @escaping Next) async throws -> Response {
        try await limiter.enter()
        let outcome: Result<Response, any Error>
        do {
            outcome = .success(try await next(request, context))
        } catch {
            outcome = .failure(error)
        }
        await limiter.leave()
        return try outcome.get()
    }
}
