import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pipeline's timeout: runs the rest of the pipeline with a deadline (``LoadContext/timeRemaining``), failing with
/// ``WebserviceError/Reason/timedOut(after:)`` once it passes.
///
/// The rest runs as `SharedWork` of its own, which is cancelled when the deadline passes. The load doesn't wait for it
/// to end, so the deadline holds even for a transport that ignores cancellation; its late answer is dropped, and a
/// place it holds under the limit is given back when it has really returned. A layer that has an answer of its own for
/// that moment, such as the cache's stored response (<doc:WorkingOffline>), runs the rest within the deadline itself.
///
/// What passed is decided by the clock, not by which error came first (``LoadContext/named(_:)``): a request cut off at
/// the deadline may end with `CancellationError`, or first with the transport's own `URLError`.
enum Timeout {
    /// `send` for `request` and `context`, within `timeout` seconds.
    static func run(
        within timeout: TimeInterval,
        _ request: URLRequest,
        context: LoadContext,
        _ send: @escaping Middleware.Next
    ) async throws -> Response {
        var context = context
        let deadline = LoadContext.Deadline(uptime: Uptime.now() + Uptime.nanoseconds(timeout), timeout: timeout)
        context.deadline = deadline
        do {
            return try await SharedWork<Int, Response>.value(before: deadline.uptime) { [context] in
                try await send(request, context)
            }
        } catch is SharedWork<Int, Response>.DeadlinePassed {
            throw WebserviceError(.timedOut(after: timeout))
        } catch {
            // The caller's own cancellation stays one, even at the deadline.
            if Task.isCancelled { throw error }
            throw context.named(error)
        }
    }
}

extension LoadContext {
    /// When a load's resource's timeout passes, as a reading of `Uptime`, and that timeout in seconds.
    struct Deadline: Sendable {
        var uptime: UInt64
        let timeout: TimeInterval
    }

    /// `error` as the load or request that ended with it reports it: ``WebserviceError/Reason/timedOut(after:)`` once
    /// the deadline has passed, whichever error the cut-off request ended with (`CancellationError`, the transport's
    /// `URLError(.timedOut)` or `.cancelled`), and `error` as it is otherwise.
    ///
    /// An error with a response keeps it: the server answered. Every place that reports a failure (the load's error,
    /// each request's ``WebserviceEvent``, and so the log lines, metrics and spans made of them) names it with this.
    func named(_ error: any Error) -> any Error {
        guard let deadline, Uptime.now() >= deadline.uptime else { return error }
        let webserviceError = error as? WebserviceError
        if webserviceError?.response != nil { return error }
        if case .timedOut = webserviceError?.reason { return error }
        return WebserviceError(.timedOut(after: deadline.timeout)).counting(attempts: attempt)
    }
}
