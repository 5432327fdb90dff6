import Foundation

/// What a load knows besides its request, handed explicitly to each ``Middleware`` and to the transport: the
/// resource's name, the deadline, the body limit, the attempt, the cache policy, the progress, the download's
/// destination, the stage that takes the body, the observer and the web service.
///
/// ``Webservice/load(_:)->A`` makes one per load; a middleware may pass a changed copy to `next`, as ``RetryPolicy``
/// counts its attempts. See <doc:MiddlewareChain>.
///
/// ```swift
/// func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
///     logger.info("\(context.name ?? "load") attempt \(context.attempt)")
///     return try await next(request, context)
/// }
/// ```
public struct LoadContext: Sendable {
    /// The resource's ``Resource/name``, for logs and for middleware that match on it.
    public var name: String?
    /// When the resource's ``Resource/timeout`` passes, `nil` without one: set by the web service, and moved earlier by
    /// a layer that must answer before it, as the cache does with a stored response (<doc:WorkingOffline>).
    public var deadline: Deadline?
    /// The resource's ``Resource/maxBodySize``: the largest body the transport may accept, in bytes.
    public var maxBodySize: Int?
    /// The attempt this request is, from 1; ``RetryPolicy`` counts it up.
    public var attempt = 1
    /// The web service's `observer`, which the pipeline's layers report to (``report(_:for:)``); a middleware may
    /// wrap it to see every event of the load, as the telemetry middleware do.
    public var observer: (@Sendable (WebserviceEvent) -> Void)?
    /// Receives the progress of the request body's upload and the response body's download: the resource's
    /// ``Resource/progress``.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Where a download's body is saved, `nil` for a load whose body stays in memory.
    ///
    /// It is the resource's, made with ``Resource/init(url:method:headers:downloadingTo:)``. The cache and
    /// ``Deduplication`` leave a download alone.
    public var destination: URL?
    /// The status codes the resource accepts: a download saves only their bodies to its ``destination``, and keeps
    /// another's in memory for the error.
    public var acceptableStatusCodes: any StatusCodeSet = 200..<300
    /// The innermost stage of each attempt, which takes the response's body: the resource's ``Resource/receiver``;
    /// `nil` leaves it unread.
    public var receiver: (any Middleware)?
    /// Whether the request may carry credentials: `false` for a request that may carry no credentials (a page another
    /// origin's server led to), which reaches the transport with safe header fields only.
    ///
    /// The transport must then add none of its own, such as a session's cookies or configured header fields, or throw
    /// `WebserviceError(.credentialsRefused)`.
    public internal(set) var sendsCredentials = true
    /// How the load uses the cache: the resource's ``Resource/cachePolicy``.
    public var cachePolicy = CachePolicy.http
    /// The web service the load runs in: loads share a response (``Deduplication``), or a response to credentials a
    /// transport added (<doc:Caching>), only within one web service, whose middleware and transport are the same.
    public let service: Webservice.Identity
    /// The load, shared by every copy of this context: what a middleware keeps for the whole load, and when it ends.
    public let load = Load()

    /// A context for a load of its own, with no limit, timeout or observer: for calling a transport's
    /// ``Transport/send(_:context:)`` yourself, as a test does.
    public init() {
        service = Webservice.Identity()
    }

    init(service: Webservice.Identity) {
        self.service = service
    }

    /// The seconds left before the resource's ``Resource/timeout`` passes, `nil` without one: a middleware shouldn't
    /// start a wait the load can't finish.
    public var timeRemaining: TimeInterval? {
        deadline.map { deadline in TimeInterval(Int64(bitPattern: deadline.uptime &- Uptime.now())) / 1_000_000_000 }
    }

    /// Tells the observer, if there is one, that `kind` happened to `request`: what every layer that has something to
    /// report calls, a middleware of yours included.
    public func report(_ kind: WebserviceEvent.Kind, for request: Request) {
        if let observer { observer(WebserviceEvent(kind, request: request, context: self)) }
    }
}
