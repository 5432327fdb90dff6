import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pipeline's limit on loads in flight: a request waits for a place, in order, and gives it back when the
/// exchange has really ended, a stream's when its body has.
///
/// It sits after the middleware and the cache: a load waiting for a credential, or for a retry's delay, holds no
/// place, so a credential provider's own load never waits behind the loads that wait for it.
struct Limiting: Middleware {
    let limiter: LoadLimiter

    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        try await limiter.enter()
        let outcome: Result<Response, any Error>
        do {
            outcome = .success(try await next(request, context))
        } catch {
            outcome = .failure(error)
        }
        // A stream keeps its place until its body ends or is dropped: its connection is in use until then.
        if case .success(var response) = outcome, response.body.data == nil {
            response.body = ResponseBody(Held(body: response.body, place: Place(limiter: limiter)))
            return response
        }
        limiter.leave()
        return try outcome.get()
    }

    /// A stream's body, which holds its place until its reader, or the body if nobody reads it, is gone.
    private struct Held: AsyncSequence, Sendable {
        let body: ResponseBody
        let place: Place

        struct AsyncIterator: AsyncIteratorProtocol {
            let reader: ResponseBody.Reader
            let place: Place

            func next() async throws -> ResponseBody.Chunk? { try await reader.next() }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(reader: body.reader(), place: place)
        }
    }

    /// A stream's place under the limit, given back when the last holder lets it go, before its `deinit` returns:
    /// ``LoadLimiter/leave()`` never waits, so the thread that drops the body isn't held up.
    private final class Place: Sendable {
        let limiter: LoadLimiter

        init(limiter: LoadLimiter) {
            self.limiter = limiter
        }

        deinit {
            limiter.leave()
        }
    }
}
