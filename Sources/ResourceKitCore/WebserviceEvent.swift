import Foundation
internal import ResourceKitSupport

/// Something that happened during a load, for logs and metrics: what a ``Webservice``'s `observer` receives.
///
/// Its ``description`` is one line for a log and never shows a credential, nor does `dump`; see <doc:Observability>.
///
/// ```swift
/// let webservice = Webservice(observer: { event in logger.info("\(event)") })
/// ```
public struct WebserviceEvent: Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable {
        /// The request was handed to the transport; each attempt sends it again.
        case sent
        /// A response arrived: its status code, its body's size and the seconds since it was sent.
        case received(statusCode: Int, bytes: Int, duration: TimeInterval)
        /// The transport failed before a response arrived, with the error ``Webservice/load(_:)->A`` would throw:
        /// ``WebserviceError/Reason/timedOut(after:)`` once the resource's ``Resource/timeout`` passed, whichever error
        /// the request ended with, or `CancellationError` when it was cancelled. Each ``sent`` ends with this or
        /// ``received(statusCode:bytes:duration:)``.
        case failed(any Error, duration: TimeInterval)
        /// ``RetryPolicy`` will send the request again after `delay` seconds; `attempt` attempts were made so far.
        case retryScheduled(attempt: Int, delay: TimeInterval)
        /// ``RetryPolicy`` waits up to `maxWait` seconds for the network, after attempt number `attempt` failed to
        /// connect.
        case waitingForNetwork(attempt: Int, maxWait: TimeInterval)
        /// ``Authentication`` replaced a rejected credential; this request made it do so.
        case credentialRefreshed
        /// The ``ResponseCache`` answered with a stored response under the load's `policy`: fresh, or `staleness`
        /// seconds past its lifetime; see <doc:WorkingOffline>.
        case cacheHit(policy: CachePolicy, staleness: TimeInterval)
        /// The server confirmed with `304 Not Modified` that the cache's stale response is still current, and that
        /// response answered.
        case revalidated
    }

    /// What happened.
    public let kind: Kind
    /// The request's method, such as `GET`.
    public var method: String { request().method }
    /// The request's URL with its credentials masked.
    public var url: URL? {
        let request = request()
        return request.redactedURL
    }
    /// The request as the transport got it, kept in a closure so that `dump` shows no header field.
    public let request: @Sendable () -> Request
    /// The attempt the event belongs to, from 1 (``LoadContext/attempt``).
    public let attempt: Int
    /// The resource's ``Resource/name``.
    public let resourceName: String?
    /// The size of the file the request's body is read from, for the events of a request sent (``Kind/sent`` and how
    /// it ended); `nil` otherwise.
    private let bodyFileLength: Int64?
    /// Whether a ``Kind/received(statusCode:bytes:duration:)`` event's `bytes` count the whole body, read into
    /// memory: not for a stream's head, nor for a download, whose body goes to a file.
    public let countsBody: Bool

    init(
        _ kind: Kind, request: Request, context: LoadContext, bodyFileLength: Int64? = nil, countsBody: Bool = false
    ) {
        self.kind = kind
        self.request = { request }
        attempt = context.attempt
        resourceName = context.name
        self.bodyFileLength = bodyFileLength
        self.countsBody = countsBody
    }

    /// The size of the request's body, in memory or in its file, for the events of a request sent; `nil` without one.
    public var requestBodySize: Int64? { bodyFileLength ?? (try? request().body?.bytes()).map { Int64($0.count) } }

    /// The event in one line, such as `GET https://api.example.com/episodes: 200, 2048 bytes in 35 ms`.
    public var description: String {
        let what =
            switch kind {
            case .sent: "sent"
            case .received(let statusCode, let bytes, let duration):
                "\(statusCode), \(bytes) bytes in \(Self.milliseconds(duration))"
            case .failed(let error, let duration): "failed after \(Self.milliseconds(duration)): \(error)"
            case .retryScheduled(let attempt, let delay):
                "attempt \(attempt) failed, retrying in \(Self.milliseconds(delay))"
            case .waitingForNetwork(let attempt, let maxWait):
                "attempt \(attempt) could not connect, waiting up to \(Self.milliseconds(maxWait)) for the network"
            case .credentialRefreshed: "credential refreshed"
            case .cacheHit(let policy, let staleness) where staleness > 0:
                "answered from the cache (\(policy)), \(Int(exactly: staleness.rounded()) ?? .max) s stale"
            case .cacheHit(let policy, _): "answered from the cache (\(policy))"
            case .revalidated: "revalidated, answered from the cache"
            }
        // The URL is redacted already, as a WebserviceError's: scrubbing it again would take the colon after it for a
        // value.
        return "\(method) \(url?.absoluteString ?? "(no URL)"): " + Redaction.scrub(what)
    }

    private static func milliseconds(_ seconds: TimeInterval) -> String {
        "\(Int((seconds * 1000).rounded())) ms"
    }
}
