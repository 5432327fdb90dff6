import Hummingbird

/// Gives every error a JSON body: the service's own ``APIError``s, Hummingbird's `HTTPError`s (an unknown route's
/// 404, a body over the upload limit) and unexpected errors, which become a 500.
///
/// Hummingbird applies a middleware only to routes added after it, and to the router's not-found responder, so the
/// router adds it first.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response
        } catch let error as any HTTPResponseError {
            return APIError(error, request: request).response
        } catch {
            context.logger.error("Unexpected error: \(error)")
            return APIError(status: .internalServerError, code: "internal_error", reason: "Unexpected server error")
                .response
        }
    }
}
