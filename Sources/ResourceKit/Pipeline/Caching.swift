import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pipeline's cache: answers with a fresh stored response, asks the server to confirm a stale one, and keeps what
/// the server allows; see <doc:Caching>.
///
/// It sits after the middleware, so the credentials they add are part of the key. A download's body is on disk, and a
/// stream's is read by its caller: the cache neither answers nor keeps them.
struct Caching: Middleware {
    let cache: ResponseCache

    func intercept(_ request: URLRequest, context: LoadContext, next: @escaping Next) async throws -> Response {
        guard context.transfer?.destination == nil, !context.streams else { return try await next(request, context) }
        var sent = request
        var stale: ResponseCache.StoredResponse?
        switch await cache.lookup(request) {
        case .fresh(let stored):
            context.report(.cacheHit, for: request)
            return try Self.answer(stored, to: request, context: context)
        case .stale(let response, let validators):
            for (name, value) in validators { sent.setValue(value, forHTTPHeaderField: name) }
            stale = response
        case .miss: break
        }
        let response = try await next(sent, context)
        // The response the 304 confirms: as the cache updated it, or as it was if the cache dropped it meanwhile.
        if let stale, response.statusCode == 304, let notModified = response.httpURLResponse() {
            let stored = await cache.revalidate(request, with: notModified) ?? stale
            context.report(.revalidated, for: request)
            var answer = try Self.answer(stored, to: request, context: context)
            answer.attempts = response.attempts
            return answer
        }
        if let stored = ResponseCache.StoredResponse(response) {
            await cache.record(stored, for: request)
        }
        return response
    }

    /// The `stored` response as the answer to `request`, within the load's body limit, its whole body reported to the
    /// load's progress: its closure hears of the body's end however the body came.
    private static func answer(
        _ stored: ResponseCache.StoredResponse,
        to request: URLRequest,
        context: LoadContext
    ) throws -> Response {
        if let limit = context.maxBodySize, stored.body.count > limit {
            throw WebserviceError(.bodyTooLarge(limit: limit))
        }
        let bytes = Int64(stored.body.count)
        context.progress?(TransferProgress(direction: .download, bytes: bytes, expectedBytes: bytes))
        var answer = stored.response
        answer.request = request
        answer.attempts = context.attempt
        return answer
    }
}
