import Foundation
internal import ResourceKitSupport
import Synchronization

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
public enum Timeout {
    /// `send` for `request` and `context`, within `timeout` seconds.
    public static func run(
        within timeout: TimeInterval,
        _ request: Request,
        context: LoadContext,
        _ send: @escaping Middleware.Next
    ) async throws -> Response {
        var context = context
        let deadline = LoadContext.Deadline(uptime: Uptime.now() + Uptime.nanoseconds(timeout), timeout: timeout)
        context.deadline = deadline
        do {
            return try await SharedWork<Int, Response>.value(
                before: deadline.uptime, ending: { deadline.progress.end(timedOut: $0) }
            ) { [context] in
                try await send(request, context)
            }
        } catch is SharedWork<Int, Response>.DeadlinePassed {
            throw WebserviceError(.timedOut(after: timeout)).counting(attempts: deadline.progress.attempts)
        } catch {
            // The caller's own cancellation stays one, even at the deadline.
            if Task.isCancelled { throw error }
            throw context.named(error)
        }
    }
}

extension LoadContext {
    /// When a load's resource's timeout passes, and that timeout in seconds, with what the load's layers saw of it.
    public struct Deadline: Sendable {
        /// When the timeout passes, as a reading of ``Uptime``.
        public var uptime: UInt64
        /// The resource's ``Resource/timeout``, in seconds.
        public let timeout: TimeInterval
        /// Shared by the copies of the load's context: the attempts sent, and how the wait for the load ended.
        public let progress = Progress()

        /// A deadline at `uptime`, a reading of ``Uptime``, for a timeout of `timeout` seconds.
        public init(uptime: UInt64, timeout: TimeInterval) {
            self.uptime = uptime
            self.timeout = timeout
        }
    }

    /// What a load's layers tell its timeout, and its timeout them: the attempts sent so far (`Sending` counts each),
    /// and whether the wait ended at the deadline or with the caller's cancellation.
    public final class Progress: Sendable {
        private struct State {
            var attempts = 1
            /// `true` once the deadline passed, `false` once the caller left; `nil` while the load runs.
            var timedOut: Bool?
        }

        private let state = Mutex(State())

        /// The attempts sent so far, at least 1.
        public var attempts: Int { state.withLock { $0.attempts } }

        /// Whether the deadline passed (`true`), the caller left first (`false`), or neither yet (`nil`).
        public var timedOut: Bool? { state.withLock { $0.timedOut } }

        /// Counts attempt number `attempt` as sent.
        public func sent(attempt: Int) {
            state.withLock { $0.attempts = max($0.attempts, attempt) }
        }

        /// Records how the wait for the load ended, if it hadn't yet.
        public func end(timedOut: Bool) {
            state.withLock { state in if state.timedOut == nil { state.timedOut = timedOut } }
        }
    }

    /// `error` as the load or request that ended with it reports it: ``WebserviceError/Reason/timedOut(after:)`` once
    /// the deadline has passed, whichever error the cut-off request ended with (`CancellationError`, the transport's
    /// `URLError(.timedOut)` or `.cancelled`), and `error` as it is otherwise.
    ///
    /// An error with a response keeps it: the server answered. A load its caller cancelled is no timeout, even if its
    /// request ends after the deadline. Every place that reports a failure (the load's error, each request's
    /// ``WebserviceEvent``, and the log lines, metrics and spans) names it with this.
    public func named(_ error: any Error) -> any Error {
        guard let deadline else { return error }
        switch deadline.progress.timedOut {
        case false?: return error
        case true?: break
        case nil: guard Uptime.now() >= deadline.uptime else { return error }
        }
        let webserviceError = error as? WebserviceError
        if webserviceError?.response != nil { return error }
        if case .timedOut = webserviceError?.reason { return error }
        return WebserviceError(.timedOut(after: deadline.timeout)).counting(
            attempts: max(attempt, deadline.progress.attempts))
    }
}
