import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Waiting for the network after an attempt that couldn't connect (`networkWait`): the rules are in
/// <doc:RetryingRequests#Waiting-for-the-network>.
extension RetryPolicy {
    /// The transport failures that mean the network or the server can't be reached at all.
    ///
    /// A later attempt succeeds once it can. A timeout is not one of them: a server that is slow to answer was reached.
    static let connectivityErrorCodes: Set<URLError.Code> = [
        .notConnectedToInternet, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
        .internationalRoamingOff, .dataNotAllowed,
    ]

    /// The header fields that describe a body, which a probe doesn't carry.
    private static let bodyFields = [
        "Content-Length", "Content-Type", "Content-Encoding", "Transfer-Encoding", "Expect",
    ]

    /// The pause between probes may not go below ``firstProbeInterval``, however ``maxProbeInterval`` is set: an
    /// interval of 0, negative or not a number would probe without a pause.
    private var probeIntervalCap: TimeInterval {
        maxProbeInterval >= firstProbeInterval ? maxProbeInterval : firstProbeInterval
    }

    /// After `failed`, which another attempt follows: when it couldn't connect and `networkWait` is set, waits until
    /// a probe sent through `next` reaches the server, the wait's bound passes or the load is cancelled.
    func waitForNetwork(after failed: FailedAttempt, next: @escaping Next) async throws {
        let context = failed.context
        guard let networkWait, let code = failed.error?.transportErrorCode, Self.connectivityErrorCodes.contains(code)
        else { return }
        let bound = min(networkWait, context.timeRemaining ?? networkWait)
        guard bound > 0 else { return }
        context.report(.waitingForNetwork(attempt: context.attempt, maxWait: bound), for: failed.request)
        try await waitForNetwork(probing: Self.probe(for: failed.request), within: bound, context: context, next: next)
    }

    /// The request that asks whether `request`'s server can be reached: a `HEAD` of its URL with its header fields,
    /// without a body or the fields that describe one.
    ///
    /// The header fields make the probe take the request's path (a gateway that routes on them, an API key it checks);
    /// they go to the origin the request was going to anyway. A `HEAD` has no effect on the server and no body to wait
    /// for.
    static func probe(for request: Request) -> Request {
        var probe = request
        probe.method = "HEAD"
        probe.body = nil
        for field in bodyFields { probe.setValue(nil, forHTTPHeaderField: field) }
        return probe
    }

    /// Probes with `probe` after pauses that double from ``firstProbeInterval`` up to ``maxProbeInterval``, with
    /// jitter, until one is answered, `bound` seconds have passed or the load's deadline has; throws
    /// `CancellationError` when the load is cancelled.
    ///
    /// The seconds passed are the clock's, or the pauses' when more: a clock whose time stands still or whose sleeps
    /// end at once (a test's) makes no more probes than one that waits.
    private func waitForNetwork(
        probing probe: Request,
        within bound: TimeInterval,
        context: LoadContext,
        next: @escaping Next
    ) async throws {
        let elapsed = clock.stopwatch()
        var paused: TimeInterval = 0
        func remaining() -> TimeInterval { min(bound - max(elapsed(), paused), context.timeRemaining ?? bound) }
        var probeContext = context
        // The probe's body is nobody's: no progress, no download (a download's receiver keeps it in memory).
        probeContext.progress = nil
        probeContext.destination = nil
        var interval = firstProbeInterval
        while true {
            var left = remaining()
            guard left > 0 else { return }
            // Between half the interval and all of it: clients that lost the network together don't probe together.
            let pause = min(interval * (0.5 + 0.5 * min(max(random(), 0), 1)), left)
            try await sleep(pause)
            paused += pause
            left = remaining()
            guard left > 0 else { return }
            if try await isAnswered(probe, within: min(probeTimeout, left), context: probeContext, next: next) {
                return
            }
            interval = min(interval * 2, probeIntervalCap)
        }
    }

    /// Whether `probe` reached the server within `seconds`.
    ///
    /// Any response does, whatever its status; a failure to connect or a timeout doesn't. Any other failure (such as
    /// TLS, or a middleware's own) came from a server that was reached, or is the next attempt's to meet.
    private func isAnswered(
        _ probe: Request,
        within seconds: TimeInterval,
        context: LoadContext,
        next: @escaping Next
    ) async throws -> Bool {
        do {
            _ = try await Timeout.run(within: seconds, probe, context: context, next)
            return true
        } catch {
            try Task.checkCancellation()
            if case .timedOut = (error as? WebserviceError)?.reason { return false }
            guard let code = (error as? WebserviceError)?.transportErrorCode else { return true }
            return !Self.connectivityErrorCodes.contains(code) && code != .timedOut
        }
    }
}

extension Clock where Duration == Swift.Duration {
    /// The seconds passed on this clock since the call, each time the closure is called.
    fileprivate func stopwatch() -> @Sendable () -> TimeInterval {
        let start = now
        return { start.duration(to: self.now) / .seconds(1) }
    }
}

extension WebserviceError {
    /// The code of the transport's failure, `nil` when the load failed otherwise.
    var transportErrorCode: URLError.Code? {
        guard case .transport(let underlying as URLError) = reason else { return nil }
        return underlying.code
    }
}
