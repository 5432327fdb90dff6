import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pipeline's timeout: runs the rest of the pipeline with a deadline (``LoadContext/timeRemaining``), failing with
/// `URLError(.timedOut)` once it passes, unless a layer offered an answer for that moment (`TimeoutAnswer`).
///
/// The rest runs in a task of its own, which is cancelled when the deadline passes. The load doesn't wait for that
/// task to end, so the deadline holds even for a transport that ignores cancellation; its late answer is dropped, and
/// a place it holds under the limit is given back when it has really returned.
enum Timeout {
    /// `send` for `request` and `context`, within `timeout` seconds.
    static func run(
        within timeout: TimeInterval,
        _ request: URLRequest,
        context: LoadContext,
        _ send: @escaping Middleware.Next
    ) async throws -> Response {
        var context = context
        let wait = Uptime.nanoseconds(timeout)
        context.deadline = Uptime.now() + wait
        let offered = TimeoutAnswer()
        context.timeoutAnswer = offered
        let (outcomes, outcome) = AsyncStream.makeStream(of: Result<Response, any Error>.self)
        let sending = Task { [context] in
            do {
                outcome.yield(.success(try await send(request, context)))
            } catch {
                outcome.yield(.failure(error))
            }
        }
        let deadline = Task {
            guard (try? await Task.sleep(nanoseconds: wait)) != nil else { return }
            if let answer = await offered.answer {
                outcome.yield(Result { try answer() })
                return
            }
            let reason = "The resource's timeout of \(timeout) s passed before the response arrived."
            let timedOut = URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: reason])
            outcome.yield(.failure(WebserviceError(.transport(timedOut))))
        }
        defer {
            sending.cancel()
            deadline.cancel()
        }
        return try await firstOutcome(of: outcomes, outcome)
    }
}

/// The answer a layer offers for the moment a load's timeout passes, such as the cache's stored response for a policy
/// that falls back on it (<doc:WorkingOffline>): it ends the load instead of `URLError(.timedOut)`.
actor TimeoutAnswer {
    /// Makes the answer, reporting it; `nil` until a layer offers one.
    private(set) var answer: (@Sendable () throws -> Response)?

    /// Offers `answer` for the moment the timeout passes, replacing an earlier offer.
    func offer(_ answer: @escaping @Sendable () throws -> Response) {
        self.answer = answer
    }
}
