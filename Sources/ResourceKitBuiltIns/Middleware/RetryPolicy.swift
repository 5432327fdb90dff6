import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a request again when the attempt failed in a way a later attempt may not: a ``Middleware``.
///
/// Only idempotent methods are retried unless `retriesEveryMethod` is set, and only failures a later attempt can
/// cure: a connection refused or lost, a timeout, and the statuses 408, 429, 500, 502, 503 and 504. The delay grows
/// exponentially from `baseDelay` with full jitter, up to `maxDelay`; a `Retry-After` on a 429 or 503 is honoured
/// up to `maxRetryAfter`. With `networkWait`, an attempt that couldn't connect waits for the network before the
/// next one. The rules are in <doc:RetryingRequests>.
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

    /// Waits between attempts; a virtual clock in tests.
    var sleep: @Sendable (TimeInterval) async throws -> Void = {
        try await Task.sleep(nanoseconds: Uptime.nanoseconds($0))
    }
    /// The current date, for a `Retry-After` that is a date.
    var now: @Sendable () -> Date = { Date() }
    /// A number in `0..<1` that picks the jitter.
    var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
    /// A monotonic clock in nanoseconds, which bounds a wait for the network; a virtual clock in tests.
    var uptime: @Sendable () -> UInt64 = { Uptime.now() }
    /// The pause before the first probe of a wait for the network, before jitter; each later one doubles it.
    var firstProbeInterval: TimeInterval = 0.25
    /// The longest pause between two probes, in seconds.
    var maxProbeInterval: TimeInterval = 4
    /// The seconds a probe may take before it counts as unanswered.
    var probeTimeout: TimeInterval = 3

    /// Creates a policy; the defaults suit an interactive app.
    public init(
        maxAttempts: Int = 3,
        baseDelay: TimeInterval = 0.5,
        maxDelay: TimeInterval = 30,
        maxRetryAfter: TimeInterval = 60,
        retriesEveryMethod: Bool = false,
        networkWait: TimeInterval? = nil
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.retriesEveryMethod = retriesEveryMethod
        self.networkWait = networkWait
    }

    /// Sends `request` through `next` until an attempt succeeds, fails for good, or `maxAttempts` are made; the
    /// last attempt's response or error, with the number of attempts, is the result.
    public func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        var context = context
        let first = context.attempt
        let method = request.method
        while true {
            let failure: Failure
            let outcome: Result<Response, WebserviceError>
            let attempt = context.attempt - first + 1
            do {
                let response = try await next(request, context)
                guard Self.retryableStatusCodes.contains(response.statusCode) else { return response }
                failure = .status(response.statusCode, retryAfter: response.value(forHTTPHeaderField: "Retry-After"))
                outcome = .success(response)
            } catch let error as WebserviceError {
                guard let code = error.transportErrorCode else { throw error }
                failure = .transport(code)
                outcome = .failure(error)
            }
            try await waitForNetwork(after: failure, attempt: attempt, of: request, context: context, next: next)
            // A wait the resource's timeout would cut short ends the load now, with the answer it has.
            guard let delay = delay(after: failure, attempt: attempt, method: method, now: now(), random: random()),
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

    /// How an attempt failed.
    enum Failure: Sendable, Equatable {
        /// The server answered with `statusCode`, and `Retry-After` when it sent one.
        case status(Int, retryAfter: String?)
        /// No response arrived.
        case transport(URLError.Code)
    }

    /// Whether attempt number `attempt` (from 1) of a `method` request may be followed by another, if it fails in a
    /// way a later attempt can cure.
    func mayRetry(after attempt: Int, method: String) -> Bool {
        attempt < maxAttempts && (retriesEveryMethod || Self.idempotentMethods.contains(method.uppercased()))
    }

    /// The seconds to wait before the next attempt, or `nil` when `failure` ends the load: the whole policy as a pure
    /// function.
    ///
    /// - Parameters:
    ///   - failure: How attempt number `attempt` (from 1) failed.
    ///   - attempt: The attempts made so far.
    ///   - method: The request's method.
    ///   - now: The current date, for a `Retry-After` that is a date.
    ///   - random: A number in `0..<1` that picks the jitter.
    /// - Returns: The seconds to wait, or `nil` to end the load with `failure`.
    func delay(after failure: Failure, attempt: Int, method: String, now: Date, random: Double) -> TimeInterval? {
        guard mayRetry(after: attempt, method: method) else { return nil }
        switch failure {
        case .transport(let code):
            guard Self.retryableErrorCodes.contains(code) else { return nil }
        case .status(let statusCode, let retryAfter):
            guard Self.retryableStatusCodes.contains(statusCode) else { return nil }
            if [429, 503].contains(statusCode), let retryAfter, let wait = Self.retryAfter(retryAfter, now: now) {
                return wait <= maxRetryAfter ? wait : nil
            }
        }
        // Full jitter: anywhere between no wait and the exponential delay, so clients that failed together don't
        // return together.
        let exponent = Double(min(attempt - 1, 62))
        let ceiling = min(maxDelay, baseDelay * pow(2, exponent))
        return ceiling * min(max(random, 0), 1)
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
