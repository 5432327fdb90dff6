import Foundation
internal import ResourceKitSupport

/// Loads resources: the one asynchronous API of ResourceKit.
///
/// It asks its transport for the bytes, then validates and parses them with the resource's synchronous
/// functions. A `Webservice` is a small value; make one and share it. See <doc:LoadingResources>.
///
/// ```swift
/// let webservice = Webservice()
/// let episodes = try await webservice.load(Episode.all)
/// ```
public struct Webservice: Sendable {
    // Its parts are set once, by the initializer: a web service with other parts is another one, and shares no
    // response (``Webservice/Identity``) with this one.

    /// The URL that resources with a relative URL are resolved against; `nil` when they are all absolute.
    ///
    /// See <doc:LoadingResources#Environments>.
    public let baseURL: URL?
    /// The transport that sends requests.
    let transport: any Transport
    /// Receives an event for each request sent, response received, failure, retry, credential refresh and cache
    /// answer, or `nil` for none; see <doc:Observability>.
    let observer: (@Sendable (WebserviceEvent) -> Void)?
    /// This web service's identity, for the ``LoadContext`` of each load.
    private let identity = Identity()
    /// The layers a request passes before its receiver and the transport, first outermost, as the initializer got
    /// them; the one that tells the observer comes after them (<doc:MiddlewareChain#The-pipeline>).
    public let layers: [any Middleware]
    /// The pipeline after the timeout, built once.
    private let pipeline: Pipeline
    /// Whether a layer may answer from stored responses (``StoringMiddleware``).
    private let stores: Bool

    /// Creates a web service that sends requests with `transport` through `layers`.
    ///
    /// It is the initializer the others end in: ``init(baseURL:transport:maxConcurrentLoads:cache:middleware:observer:)``
    /// makes the layers of your middleware and of the parts you ask for, in the order of
    /// <doc:MiddlewareChain#The-pipeline>.
    ///
    /// - Parameters:
    ///   - baseURL: The URL that resources with a relative URL are resolved against.
    ///   - transport: Sends requests.
    ///   - layers: The steps every request passes through, first outermost; the web service adds the one that tells
    ///     the observer, innermost. A load whose policy is ``CachePolicy/storedOnly`` fails at once unless one of them
    ///     is a ``StoringMiddleware``.
    ///   - observer: Receives a ``WebserviceEvent`` for each thing that happens during a load.
    public init(
        baseURL: URL? = nil,
        transport: any Transport,
        layers: [any Middleware],
        observer: (@Sendable (WebserviceEvent) -> Void)?
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.observer = observer
        self.layers = layers
        stores = layers.contains { $0 is any StoringMiddleware }
        pipeline = Pipeline(layers: layers + [Observing()], transport: transport)
    }

    /// Loads a resource: sends its request, validates the response and parses the body, off the caller's actor.
    ///
    /// It throws `CancellationError` when the calling task is cancelled, and otherwise a ``WebserviceError``; the path
    /// a load takes is in <doc:MiddlewareChain#The-pipeline>.
    ///
    /// ```swift
    /// let episodes = try await webservice.load(Episode.all)
    /// ```
    @concurrent
    public func load<A>(_ resource: Resource<A>) async throws -> A {
        var (request, response) = try await exchange(resource)
        do {
            if let commit = response.body.takeCommit() {
                // A download succeeded: its file takes the destination's place, before the parse that may read it.
                try await offCooperativePool { try commit() }
                response.body = ResponseBody(Data())
            } else if response.body.data == nil {
                // A receiver that left the body unread (none, or one of the caller's) leaves it to be collected here.
                response.body = ResponseBody(try await response.body.collect(upTo: resource.maxBodySize ?? .max))
            }
            return try resource.value(from: response)
        } catch {
            throw Self.reported(error, of: request)
        }
    }

    /// `error` as a load or a stream throws it: a ``WebserviceError`` that names `request`, its method and its URL
    /// without credentials, or `CancellationError`; for a loop that reads a body of ``response(for:)`` itself.
    ///
    /// It is the one place the request is attached, on the error's way out to the caller; the layers before see
    /// errors without it (a transport's already redacted by `Sending`, which alone sees the credentials middleware
    /// added).
    public static func reported(_ error: any Error, of request: Request) -> any Error {
        let standardized = Sending.standardized(error, of: request)
        return (standardized as? WebserviceError)?.failing(request) ?? standardized
    }

    /// Sends `resource`'s request through the pipeline and returns the response as the resource's
    /// ``Resource/receiver`` left it, neither validated nor parsed: whole by default, or, for a resource without a
    /// receiver, with its body still arriving, for you to read.
    ///
    /// It is ``load(_:)->A`` without its last step, for a client that reads the status and the header fields itself,
    /// as ResourceKitOpenAPI's does; it throws what `load` throws before that step. A download's body is its file, which
    /// goes with the response: load a download with `load`, which moves it into place.
    ///
    /// ```swift
    /// let response = try await webservice.response(for: Resource<Void>(url: url, method: .head))
    /// let length = response.value(forHTTPHeaderField: "Content-Length")
    /// ```
    @concurrent
    public func response<A>(for resource: Resource<A>) async throws -> Response {
        try await exchange(resource).1
    }

    /// Sends `resource`'s request through the pipeline and returns it with the response as the resource's
    /// ``Resource/receiver`` left it: whole, a download's in its file (which ``load(_:)->A`` moves into place), or,
    /// without a receiver, with its body still to be read.
    ///
    /// Its errors name the request, once (``reported(_:of:)``).
    func exchange<A>(_ resource: Resource<A>) async throws -> (Request, Response) {
        try Task.checkCancellation()
        var unchecked = Request(resource: resource)
        do {
            if unchecked.url.scheme == nil { unchecked.url = try Self.resolved(unchecked.url, against: baseURL) }
            return try await unreportedExchange(resource, unchecked)
        } catch {
            throw Self.reported(error, of: unchecked)
        }
    }

    /// ``exchange(_:)`` before its errors name the request; inlined, as `request(for:_:)` is, so that
    /// `Resource<A>`'s metadata is looked up once a load.
    @inline(__always)
    private func unreportedExchange<A>(
        _ resource: Resource<A>,
        _ unchecked: Request
    ) async throws -> (Request, Response) {
        let request = try request(for: resource, unchecked)
        // Without a layer that stores responses nothing is stored, nor ever a download: a load that may use only a
        // stored response fails here, before any layer.
        if resource.cachePolicy == .storedOnly, !stores || resource.destination != nil {
            throw WebserviceError(.notStored)
        }
        var context = LoadContext(service: identity)
        context.name = resource.name
        context.observer = observer
        context.sendsCredentials = resource.sendsCredentials
        context.cachePolicy = resource.cachePolicy
        context.maxBodySize = resource.maxBodySize
        context.progress = resource.progress
        context.destination = resource.destination
        context.acceptableStatusCodes = resource.acceptableStatusCodes
        context.receiver = resource.receiver
        let response: Response
        do {
            if let timeout = resource.timeout {
                response = try await Timeout.run(within: timeout, request, context: context, pipeline.send)
            } else {
                response = try await pipeline.send(request, context)
            }
            try Task.checkCancellation()
        } catch {
            context.load.end(.failure(error))
            throw error
        }
        context.load.end(.success(response.statusCode))
        return (request, response)
    }

    /// The request for `resource` as the pipeline gets it: without credentials for a resource that may carry none.
    ///
    /// It throws, before anything is sent, for a header field HTTP forbids. A transport that would add credentials
    /// of its own to a request without them adds none, or refuses it (``LoadContext/sendsCredentials``).
    ///
    /// `request` is `resource`'s. Inlined into callers that have `Resource<A>`'s metadata at hand: called, this generic
    /// function looks it up again, hundreds of instructions a load.
    @inline(__always)
    private func request<A>(for resource: Resource<A>, _ request: Request) throws(WebserviceError) -> Request {
        try validateHeaderFields(resource.headers)
        return resource.sendsCredentials ? request : request.withoutCredentials
    }
}

extension Webservice {
    /// The identity of a web service, its middleware and transport together: made by its initializer, shared by its
    /// copies (``LoadContext/service``).
    public final class Identity: Hashable, Sendable {
        /// Whether both are the identity of one web service.
        public static func == (lhs: Identity, rhs: Identity) -> Bool { lhs === rhs }
        /// Hashes the identity.
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }
}
