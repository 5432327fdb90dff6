import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The layer after the middleware that takes the credentials they added off a request whose load may carry none (a
/// page on another origin), before the cache keys it, the observer reports it or the transport sends it.
struct Uncredentialed: Middleware {
    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        try await next(context.sendsCredentials ? request : request.withoutCredentials, context)
    }
}
