import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a request again when the attempt failed in a way a later attempt may not: a ``Middleware``.
///
/// Only idempotent methods are retried unless `retriesEveryMethod` is set. Of their failures, `retrying`, your rule,
/// picks those a later attempt may cure; the built-in one, ``FailedAttempt/isTransient``, retries a connection refused
/// or lost, a timeout, and the statuses 408, 429, 500, 502, 503 and 504. The delay grows exponentially from
/// `baseDelay` with full jitter, up to `maxDelay`; a `Retry-After` on a 429 or 503 is honoured up to `maxRetryAfter`.
/// With `networkWait`, an attempt that couldn't connect waits for the network before the next one. Every wait is on
/// `clock`, which a test replaces so that it doesn't wait. The rules are in <doc:RetryingRequests>.
///
/// ```swift
/// let webservice = Webservice(middleware: [RetryPolicy(maxAttempts: 4, networkWait: 30)])
/// ```
public struct RetryPolicy: Middleware {
    /// The most attempts a load makes, the first one included.
    var maxAttempts: Int
    /// The seconds before the second attempt, before jitter; each later attempt doubles it.
    var baseDelay: TimeInterval
    /// The longest computed delay, in seconds.
    var maxDelay: TimeInterval
    /// The longest `Retry-After` honoured, in seconds; a server asking for more ends the load at once.
    var maxRetryAfter: TimeInterval
    /// Whether `POST`, `PATCH` and other methods that are not idempotent are retried too, which may repeat their
    /// effect on the server.
    var retriesEveryMethod: Bool
    /// The longest wait for the network after an attempt that couldn't connect, before the next attempt, in seconds;
    /// `nil`, the default, doesn't wait.
    ///
    /// The policy probes the server with a `HEAD` of the request's URL through the layers after it, with backoff,
    /// until any response arrives, never past the resource's ``Resource/timeout``, and only when another attempt
    /// follows; see <doc:RetryingRequests#Waiting-for-the-network>.
    var networkWait: TimeInterval?
    /// The clock the policy waits on and measures its wait for the network with: the backoff, `Retry-After` and the
    /// pauses between probes.
    var clock: any Clock<Duration>
    /// Whether a failed attempt that may be repeated is worth another: the app's rule.
    var rule: @Sendable (FailedAttempt) -> Bool

    /// The current date, for a `Retry-After` that is a date.
    var now: @Sendable () -> Date = { Date() }
    /// A number in `0..<1` that picks the jitter.
    var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
    /// The pause before the first probe of a wait for the network, before jitter; each later one doubles it.
    var firstProbeInterval: TimeInterval = 0.25
    /// The longest pause between two probes, in seconds.
    var maxProbeInterval: TimeInterval = 4
    /// The seconds a probe may take before it counts as unanswered.
    var probeTimeout: TimeInterval = 3

    /// Creates a policy; the defaults suit an interactive app.
    ///
    /// - Parameters:
    ///   - maxAttempts: The most attempts a load makes, the first one included.
    ///   - baseDelay: The seconds before the second attempt, before jitter; each later attempt doubles it.
    ///   - maxDelay: The longest computed delay, in seconds.
    ///   - maxRetryAfter: The longest `Retry-After` honoured, in seconds; a server asking for more ends the load.
    ///   - retriesEveryMethod: Whether `POST`, `PATCH` and other methods that are not idempotent are retried too.
    ///   - networkWait: The longest wait for the network after an attempt that couldn't connect, in seconds; `nil`
    ///     doesn't wait.
    ///   - clock: The clock every wait of the policy is on: `ContinuousClock()`, or a test's clock.
    ///   - rule: Whether a failed attempt of a request that may be repeated is followed by another, while attempts
    ///     are left: ``FailedAttempt/isTransient`` unless you extend or replace it.
    public init(
        maxAttempts: Int = 3,
        baseDelay: TimeInterval = 0.5,
        maxDelay: TimeInterval = 30,
        maxRetryAfter: TimeInterval = 60,
        retriesEveryMethod: Bool = false,
        networkWait: TimeInterval? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        retrying rule: @escaping @Sendable (FailedAttempt) -> Bool = { $0.isTransient }
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.retriesEveryMethod = retriesEveryMethod
        self.networkWait = networkWait
        self.clock = clock
        self.rule = rule
    }

    /// Sends `request` through `next` until an attempt succeeds, fails for good, or `maxAttempts` are made; the
    /// last attempt's response or error, with the number of attempts, is the result.
    public func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        var context = context
        let first = context.attempt
        while true {
            let outcome: Result<Response, WebserviceError>
            let attempt = context.attempt - first + 1
            do {
                let response = try await next(request, context)
                guard !context.acceptableStatusCodes.contains(response.statusCode) else { return response }
                outcome = .success(response)
            } catch let error as WebserviceError {
                outcome = .failure(error)
            }
            let failed = FailedAttempt(request: request, context: context, outcome: outcome)
            guard retries(failed, attempt: attempt) else { return try outcome.get() }
            try await waitForNetwork(after: failed, next: next)
            // A wait the resource's timeout would cut short ends the load now, with the answer it has.
            guard let delay = delay(after: failed, attempt: attempt, now: now(), random: random()),
                context.timeRemaining.map({ delay < $0 }) ?? true
            else { return try outcome.get() }
            context.report(.retryScheduled(attempt: attempt, delay: delay), for: request)
            try await sleep(delay)
            context.attempt += 1
        }
    }

    /// The methods whose repetition has no further effect (RFC 9110, section 9.2.2).
    static let idempotentMethods: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]
    /// The statuses that a later attempt may not get again.
    static let retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// The transport failures that a later attempt may not meet again: a failure to connect, or a timeout.
    static let retryableErrorCodes = connectivityErrorCodes.union([.timedOut])

    /// Whether `failed`, attempt number `attempt` (from 1), is followed by another: while attempts are left, for an
    /// idempotent method unless every method may be repeated, when the rule says so.
    func retries(_ failed: FailedAttempt, attempt: Int) -> Bool {
        let method = failed.request.method.uppercased()
        return attempt < maxAttempts && (retriesEveryMethod || Self.idempotentMethods.contains(method)) && rule(failed)
    }

    /// The seconds to wait before the attempt after `failed`, or `nil` when its `Retry-After` asks for more than
    /// `maxRetryAfter`.
    ///
    /// - Parameters:
    ///   - failed: Attempt number `attempt` (from 1), which is to be followed by another.
    ///   - attempt: The attempts made so far.
    ///   - now: The current date, for a `Retry-After` that is a date.
    ///   - random: A number in `0..<1` that picks the jitter.
    /// - Returns: The seconds to wait, or `nil` to end the load with `failed`.
    func delay(after failed: FailedAttempt, attempt: Int, now: Date, random: Double) -> TimeInterval? {
        if let response = failed.response, [429, 503].contains(response.statusCode),
            let retryAfter = response.value(forHTTPHeaderField: "Retry-After"),
            let wait = Self.retryAfter(retryAfter, now: now)
        {
            return wait <= maxRetryAfter ? wait : nil
        }
        // Full jitter: anywhere between no wait and the exponential delay, so clients that failed together don't
        // return together.
        let exponent = Double(min(attempt - 1, 62))
        let ceiling = min(maxDelay, baseDelay * pow(2, exponent))
        return ceiling * min(max(random, 0), 1)
    }

    /// Waits `seconds` on ``clock``: none for a negative or NaN value; throws `CancellationError` when the load is
    /// cancelled.
    func sleep(_ seconds: TimeInterval) async throws {
        try await clock.sleep(for: .nanoseconds(Int64(Uptime.nanoseconds(seconds))))
    }

    /// The seconds a `Retry-After` value asks for: delta-seconds, or an HTTP-date (RFC 9110, section 10.2.3) counted
    /// from `now`; `nil` when the value is neither.
    ///
    /// A date in the past asks for no wait. Delta-seconds too large for a `TimeInterval` to hold exactly are capped at
    /// a year, which no policy honours.
    static func retryAfter(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return trimmed.utf8.count > 9 ? year : TimeInterval(Int(trimmed) ?? 0)
        }
        guard let date = httpDate(trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    private static let year: TimeInterval = 365 * 24 * 60 * 60

    /// `text` as an HTTP-date in any of the three formats a recipient must accept (RFC 9110, section 5.6.7).
    static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
