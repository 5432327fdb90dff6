import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Lets identical `GET` requests in flight at the same time share one exchange with the server: a ``Middleware``.
///
/// Requests are identical when they would send the same bytes through the same transport: their URLs, all their
/// header fields (credentials included) and their resources' body limits are, and they go through one web service
/// or its copies. Put it after ``Authentication``, so that the credential is among the fields compared. Every caller
/// gets the shared result or error. A caller that is cancelled stops waiting at once; the shared request is cancelled
/// only when every caller waiting for it is. See <doc:DeduplicatingRequests>.
///
/// ```swift
/// let webservice = Webservice(middleware: [Deduplication()])
/// ```
///
/// It needs the `Synchronization` module's `Mutex`, hence macOS 15, iOS 18 or Linux.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public struct Deduplication: Middleware {
    private let flights = Flights()

    /// Creates a middleware with no request in flight; copies share the requests in flight.
    public init() {}

    /// Joins the identical request in flight along the same pipeline, or sends `request` for every caller that joins
    /// it before it ends.
    public func intercept(_ request: URLRequest, context: LoadContext, next: @escaping Next) async throws -> Response {
        // A download or a caller's progress belongs to one load; it is never shared.
        guard (request.httpMethod ?? "GET") == "GET", request.httpBody == nil, context.transfer == nil,
            let key = Key(request, context: context)
        else {
            return try await next(request, context)
        }
        let waiter = flights.newWaiterID()
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    flights.join(key, as: waiter, continuation: continuation) { try await next(request, context) }
                }
            } onCancel: {
                flights.leave(key, waiter)
            }
        } catch is Unshared {
            return try await next(request, context)
        }
    }

    /// A request as it is compared: its URL, its header fields as bytes (see `keyBytes(excluding:)`), and the path
    /// its load takes from here (web service and transport, body limit, credentials).
    private struct Key: Hashable {
        var url: URL
        var headers: [[UInt8]: [UInt8]]
        var chain: LoadContext.Chain
        var maxBodySize: Int?
        var sendsCredentials: Bool
        var cachePolicy: CachePolicy

        init?(_ request: URLRequest, context: LoadContext) {
            guard let url = request.url else { return nil }
            self.url = url
            headers = (request.allHTTPHeaderFields ?? [:]).keyBytes()
            chain = context.chain
            maxBodySize = context.maxBodySize
            sendsCredentials = context.sendsCredentials
            cachePolicy = context.cachePolicy
        }
    }

    /// The requests in flight, each with the callers waiting for it.
    private final class Flights: Sendable {
        typealias Outcome = Result<Response, any Error>
        typealias Waiter = CheckedContinuation<Response, any Error>

        private struct Flight {
            var id: Int
            var task: Task<Void, Never>
            var waiters: [Int: Waiter]
        }

        private struct State {
            var flights: [Key: Flight] = [:]
            var lastID = 0
        }

        private let state = Mutex(State())

        func newWaiterID() -> Int {
            state.withLock { state in
                state.lastID += 1
                return state.lastID
            }
        }

        /// Adds `continuation` to the callers of the flight for `key`, starting one that runs `send` if none is in
        /// flight; a caller whose task is already cancelled gets `CancellationError` instead.
        func join(
            _ key: Key,
            as waiter: Int,
            continuation: Waiter,
            send: @escaping @Sendable () async throws -> Response
        ) {
            let joined = state.withLock { state -> Bool in
                // Checked under the lock: a cancellation handler that ran before the caller joined found nothing to
                // remove.
                guard !Task.isCancelled else { return false }
                if state.flights[key] != nil {
                    state.flights[key]?.waiters[waiter] = continuation
                    return true
                }
                state.lastID += 1
                let id = state.lastID
                let task = Task {
                    let outcome: Outcome
                    do { outcome = .success(try await send()) } catch { outcome = .failure(error) }
                    self.land(key, id, outcome)
                }
                state.flights[key] = Flight(id: id, task: task, waiters: [waiter: continuation])
                return true
            }
            if !joined { continuation.resume(throwing: CancellationError()) }
        }

        /// Stops `waiter` waiting with `CancellationError`, cancelling the flight when it was the last caller.
        func leave(_ key: Key, _ waiter: Int) {
            let (continuation, abandoned) = state.withLock { state -> (Waiter?, Task<Void, Never>?) in
                guard let continuation = state.flights[key]?.waiters.removeValue(forKey: waiter) else {
                    return (nil, nil)
                }
                guard state.flights[key]?.waiters.isEmpty == true else { return (continuation, nil) }
                return (continuation, state.flights.removeValue(forKey: key)?.task)
            }
            abandoned?.cancel()
            continuation?.resume(throwing: CancellationError())
        }

        /// Hands `outcome` to every caller of the flight `id`, which has ended.
        private func land(_ key: Key, _ id: Int, _ outcome: Outcome) {
            let waiters = state.withLock { state -> [Waiter] in
                guard state.flights[key]?.id == id else { return [] }
                return Array(state.flights.removeValue(forKey: key)?.waiters.values ?? [:].values)
            }
            // A body still to be read (a stream's) can be read once: one caller gets it, the others send their own.
            if case .success(let response) = outcome, response.stream != nil, let first = waiters.first {
                first.resume(returning: response)
                for waiter in waiters.dropFirst() { waiter.resume(throwing: Unshared()) }
                return
            }
            for waiter in waiters { waiter.resume(with: outcome) }
        }
    }

    /// What a caller gets when the response's body can't be shared: it sends its own request.
    private struct Unshared: Error {}
}
