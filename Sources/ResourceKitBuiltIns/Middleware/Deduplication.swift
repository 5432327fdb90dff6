import Foundation
import ResourceKitCore
internal import ResourceKitSupport

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
public struct Deduplication: Middleware {
    /// The requests in flight, each with the callers waiting for it.
    private let flights = SharedWork<Key, Response>()

    /// Creates a middleware with no request in flight; copies share the requests in flight.
    public init() {}

    /// Joins the identical request in flight along the same pipeline, or sends `request` for every caller that joins
    /// it before it ends.
    public func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        // A download or a caller's progress belongs to one load; it is never shared.
        guard request.method == "GET", request.body == nil, context.destination == nil, context.progress == nil,
            let key = Key(request, context: context)
        else {
            return try await next(request, context)
        }
        let (response, started) = try await flights.value(for: key) { try await next(request, context) }
        // A body still to be read (a stream's) can be read once: the caller that sent the request reads it, and each
        // other caller sends its own.
        guard response.body.data != nil || started else { return try await next(request, context) }
        return response
    }

    /// A request as it is compared: its URL, its header fields as bytes (see `keyBytes(excluding:)`), its transport
    /// timer, and the path its load takes from here (web service and transport, body limit, credentials).
    private struct Key: Hashable, Sendable {
        var url: URL
        var headers: [[UInt8]: [UInt8]]
        var service: Webservice.Identity
        var maxBodySize: Int?
        var sendsCredentials: Bool
        var cachePolicy: CachePolicy
        /// The resource's timeout, which the request that runs ends with for every caller.
        var timeout: TimeInterval?

        init?(_ request: Request, context: LoadContext) {
            url = request.url
            timeout = context.deadline?.timeout
            headers = request.headerFields.keyBytes()
            service = context.service
            maxBodySize = context.maxBodySize
            sendsCredentials = context.sendsCredentials
            cachePolicy = context.cachePolicy
        }
    }
}
