import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pipeline's cache: answers from the ``ResponseCache`` as the load's ``CachePolicy`` allows, asks the server to
/// confirm a stored response, and keeps what the server allows; see <doc:Caching> and <doc:WorkingOffline>.
///
/// It sits after the middleware, so the credentials they add are part of the key. A download's body is on disk, and a
/// stream's is read by its caller: the cache neither answers nor keeps them. Nor a request that may carry no
/// credentials (a page another origin's server led to): its key can't tell it from the same request sent with
/// credentials a transport adds on its own, such as a session's cookies, whose response it must never get.
struct Caching: StoringMiddleware {
    let cache: ResponseCache

    /// The statuses after which `stale-if-error` and ``CachePolicy/networkElseStored`` answer with a stored response.
    static let serverErrors: Set<Int> = [500, 502, 503, 504]

    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        guard context.destination == nil else { return try await next(request, context) }
        let policy = context.cachePolicy
        guard context.sendsCredentials else {
            guard policy != .storedOnly else { throw WebserviceError(.notStored) }
            return try await next(request, context)
        }
        let (found, generation) = await cache.lookup(request, service: context.service)
        guard let found else {
            guard policy != .storedOnly else { throw WebserviceError(.notStored) }
            return try await load(request, context: context, generation: generation, next: next)
        }
        switch policy {
        case .storedOnly, .storedElseNetwork:
            return try answer(found, to: request, policy: policy, context: context)
        case .http where found.isFresh:
            return try answer(found, to: request, policy: policy, context: context)
        case .http where found.servableWhileRevalidating:
            await revalidateInBackground(found, request, context: context, generation: generation, next: next)
            return try answer(found, to: request, policy: policy, context: context)
        case .http, .revalidate, .networkElseStored:
            break
        }
        // Ask the server, with the stored response's validators when it has any.
        var sent = request
        for (name, value) in found.response.validators { sent.setValue(value, forHTTPHeaderField: name) }
        let fallsBack = policy == .networkElseStored || found.servableIfError
        let response: Response
        do {
            response = try await fallsBack ? Self.send(sent, withinDeadlineOf: context, next) : next(sent, context)
        } catch let error as WebserviceError where fallsBack && error.isTransportFailure {
            return try answer(found, to: request, policy: policy, context: context)
        } catch is SharedWork<Int, Response>.DeadlinePassed {
            return try answer(found, to: request, policy: policy, context: context)
        }
        if response.statusCode == 304, !found.response.validators.isEmpty {
            // The response the 304 confirms: as the cache updated it, or as it was if the cache dropped it meanwhile.
            let stored =
                await cache.revalidate(request, found: found, with: response, generation: generation) ?? found.response
            context.report(.revalidated, for: request)
            var answer = try Self.answer(stored, to: request, context: context)
            answer.attempts = response.attempts
            return answer
        }
        if fallsBack, Self.serverErrors.contains(response.statusCode) {
            return try answer(found, to: request, policy: policy, context: context)
        }
        await record(response, for: request, context: context, generation: generation)
        return response
    }

    /// Sends `request` and keeps its response, when the server allows.
    private func load(_ request: Request, context: LoadContext, generation: Int, next: Next) async throws -> Response {
        let response = try await next(request, context)
        await record(response, for: request, context: context, generation: generation)
        return response
    }

    /// Keeps `response` for `request` when the server allows: for this web service alone when its transport added
    /// credentials to the request (``ResponseCache/Key/service``), never when they were cookies.
    private func record(_ response: Response, for request: Request, context: LoadContext, generation: Int) async {
        guard !ResponseCache.Key.isAnsweredWithCookies(request, response),
            let stored = ResponseCache.StoredResponse(response)
        else { return }
        let keptFor = ResponseCache.Key.keptFor(request, answeredBy: response, service: context.service)
        await cache.record(stored, for: request, keptFor: keptFor, generation: generation)
    }

    /// The longest a background revalidation may take, in seconds, a place under the load limit included.
    static let backgroundTimeout: TimeInterval = 60

    /// How long before the load's deadline, at most, the cache stops waiting when a stored response answers a failure.
    ///
    /// It stops a tenth of the time left before the deadline, at most this many seconds, so that the stored answer
    /// reaches the caller before the resource's timeout ends the load.
    static let fallbackMargin: TimeInterval = 0.1

    /// `next` for `request`, within the load's deadline less the ``fallbackMargin``.
    ///
    /// The stored response answers when it passes (<doc:WorkingOffline>).
    ///
    /// - Throws: `SharedWork`'s `DeadlinePassed` when the deadline passes first, or what `next` throws.
    private static func send(_ request: Request, withinDeadlineOf context: LoadContext, _ next: @escaping Next)
        async throws -> Response
    {
        guard let deadline = context.deadline?.uptime else { return try await next(request, context) }
        let now = Uptime.now()
        let left = deadline > now ? deadline - now : 0
        var context = context
        let fallback = deadline - min(left / 10, Uptime.nanoseconds(fallbackMargin))
        context.deadline?.uptime = fallback
        return try await SharedWork<Int, Response>.value(before: fallback) { [context] in
            try await next(request, context)
        }
    }

    /// Revalidates `found` in a task the cache owns while it answers the load (`stale-while-revalidate`).
    ///
    /// The task reports no progress, isn't cancelled with the load, ends within ``backgroundTimeout``, and is
    /// cancelled when the cache is released.
    private func revalidateInBackground(
        _ found: ResponseCache.Found,
        _ request: Request,
        context: LoadContext,
        generation: Int,
        next: @escaping Next
    ) async {
        var context = context
        context.progress = nil
        var sent = request
        for (name, value) in found.response.validators { sent.setValue(value, forHTTPHeaderField: name) }
        await cache.store.revalidateInBackground(
            request, found: found, service: context.service, generation: generation,
            hasValidators: !found.response.validators.isEmpty
        ) { [context, sent] in
            try await Timeout.run(within: Self.backgroundTimeout, sent, context: context, next)
        } revalidated: { [context] in
            context.report(.revalidated, for: request)
        }
    }

    /// `found` as the answer to `request` under `policy`, reported to the observer with how stale it is.
    private func answer(
        _ found: ResponseCache.Found,
        to request: Request,
        policy: CachePolicy,
        context: LoadContext
    ) throws -> Response {
        let answer = try Self.answer(found.response, to: request, context: context)
        context.report(.cacheHit(policy: policy, staleness: found.staleness), for: request)
        return answer
    }

    /// The `stored` response as the answer to `request`, within the load's body limit, its whole body reported to the
    /// load's progress: its closure hears of the body's end however the body came.
    private static func answer(
        _ stored: ResponseCache.StoredResponse,
        to request: Request,
        context: LoadContext
    ) throws -> Response {
        if let limit = context.maxBodySize, stored.body.count > limit {
            throw WebserviceError(.bodyTooLarge(limit: limit))
        }
        let bytes = Int64(stored.body.count)
        context.progress?(TransferProgress(isUpload: false, bytes: bytes, expectedBytes: bytes))
        var answer = stored.response
        answer.request = request
        answer.attempts = context.attempt
        return answer
    }

}

extension WebserviceError {
    /// Whether no response arrived: the transport failed, or the resource's timeout passed first.
    var isTransportFailure: Bool {
        switch reason {
        case .transport, .timedOut: true
        default: false
        }
    }
}
