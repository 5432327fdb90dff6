import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Holds a request that couldn't reach its server until the network is back, so that the ``RetryPolicy`` before it
/// doesn't spend its attempts offline: a ``Middleware``.
///
/// When an attempt fails because no connection could be made (no network, the host not found or refusing, the
/// connection lost), it probes the server with a `HEAD` of the request's URL, with backoff, until any response
/// arrives, for at most ``maxWait`` seconds and never past the resource's ``Resource/timeout``; then it rethrows the
/// failure, and the policy's next attempt goes out. It waits only when a ``RetryPolicy`` before it will make another
/// attempt. The rules are in <doc:RetryingRequests#Waiting-for-the-network>.
///
/// ```swift
/// let webservice = Webservice(middleware: [RetryPolicy(), NetworkWait(maxWait: 30)])
/// ```
public struct NetworkWait: Middleware {
    /// The longest wait for the network after a failed attempt, in seconds.
    public var maxWait: TimeInterval
    /// The longest pause between two probes, in seconds; the first pause is a quarter of a second, and each later one
    /// doubles it.
    public var maxProbeInterval: TimeInterval

    /// The pause before the first probe, before jitter.
    var firstProbeInterval: TimeInterval = 0.25
    /// The seconds a probe may take before it counts as unanswered.
    var probeTimeout: TimeInterval = 3
    /// Pauses between probes; a virtual clock in tests.
    var sleep: @Sendable (TimeInterval) async throws -> Void = {
        try await Task.sleep(nanoseconds: Uptime.nanoseconds($0))
    }
    /// A monotonic clock in nanoseconds, which bounds the wait; a virtual clock in tests.
    var uptime: @Sendable () -> UInt64 = { Uptime.now() }
    /// A number in `0..<1` that picks the jitter.
    var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// Creates a middleware that waits up to `maxWait` seconds for the network, probing at least every
    /// `maxProbeInterval` seconds (never more often than every quarter of a second).
    public init(maxWait: TimeInterval = 30, maxProbeInterval: TimeInterval = 4) {
        self.maxWait = maxWait
        self.maxProbeInterval = maxProbeInterval
    }

    /// The pause between probes may not go below ``firstProbeInterval``, however ``maxProbeInterval`` is set: an
    /// interval of 0, negative or not a number would probe without a pause.
    private var probeIntervalCap: TimeInterval {
        maxProbeInterval >= firstProbeInterval ? maxProbeInterval : firstProbeInterval
    }

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

    /// Sends `request` through `next`; when it fails to connect and another attempt follows, waits until a probe
    /// reaches the server, the wait's bound passes or the load is cancelled, then rethrows the failure.
    public func intercept(_ request: URLRequest, context: LoadContext, next: @escaping Next) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as WebserviceError {
            guard context.retryFollows == true, let code = error.transportErrorCode,
                Self.connectivityErrorCodes.contains(code)
            else { throw error }
            let bound = min(maxWait, context.timeRemaining ?? maxWait)
            guard bound > 0 else { throw error }
            context.report(.waitingForNetwork(attempt: context.attempt, maxWait: bound), for: request)
            try await waitForNetwork(probing: Self.probe(for: request), within: bound, context: context, next: next)
            throw error
        }
    }

    /// The request that asks whether `request`'s server can be reached: a `HEAD` of its URL with its header fields,
    /// without a body or the fields that describe one.
    ///
    /// The header fields make the probe take the request's path (a gateway that routes on them, an API key it checks);
    /// they go to the origin the request was going to anyway. A `HEAD` has no effect on the server and no body to wait
    /// for.
    static func probe(for request: URLRequest) -> URLRequest {
        var probe = request
        probe.httpMethod = "HEAD"
        probe.httpBody = nil
        probe.httpBodyStream = nil
        for field in bodyFields { probe.setValue(nil, forHTTPHeaderField: field) }
        return probe
    }

    /// Probes with `probe` after pauses that double from ``firstProbeInterval`` up to ``maxProbeInterval``, with
    /// jitter, until one is answered or `bound` seconds have passed; throws `CancellationError` when the load is
    /// cancelled.
    private func waitForNetwork(
        probing probe: URLRequest,
        within bound: TimeInterval,
        context: LoadContext,
        next: @escaping Next
    ) async throws {
        let start = uptime()
        var probeContext = context
        probeContext.transfer = nil
        var interval = firstProbeInterval
        while true {
            var left = bound - TimeInterval(uptime() &- start) / 1_000_000_000
            guard left > 0 else { return }
            // Between half the interval and all of it: clients that lost the network together don't probe together.
            try await sleep(min(interval * (0.5 + 0.5 * min(max(random(), 0), 1)), left))
            left = bound - TimeInterval(uptime() &- start) / 1_000_000_000
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
    /// TLS) came from a server that was reached.
    private func isAnswered(
        _ probe: URLRequest,
        within seconds: TimeInterval,
        context: LoadContext,
        next: @escaping Next
    ) async throws -> Bool {
        do {
            _ = try await Timeout.run(within: seconds, probe, context: context, next)
            return true
        } catch let error as WebserviceError {
            try Task.checkCancellation()
            guard let code = error.transportErrorCode else { return true }
            return !Self.connectivityErrorCodes.contains(code) && code != .timedOut
        }
    }
}

extension WebserviceError {
    /// The code of the transport's failure, `nil` when the load failed otherwise.
    var transportErrorCode: URLError.Code? {
        guard case .transport(let underlying as URLError) = reason else { return nil }
        return underlying.code
    }
}
