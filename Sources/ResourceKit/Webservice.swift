import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads resources: the only asynchronous code in ResourceKit.
///
/// `load` builds the request with `URLRequest(resource:)`, sends it through the ``transport``, and hands the
/// response to ``Resource/value(from:response:)``, which requires an HTTP response with a `2xx` status and parses
/// the body. Everything but the sending is synchronous and tested without a network.
///
/// ```swift
/// let webservice = Webservice()
/// let episodes = try await webservice.load(Episode.all)
/// ```
public struct Webservice: Sendable {
    /// Sends the requests: a `URLSession`, or any other ``Transport``.
    public var transport: any Transport

    /// Creates a web service that sends requests through ResourceKit's own shared `URLSession`.
    ///
    /// The session uses the default configuration and one rule `URLSession.shared` lacks: a redirect to another
    /// origin (scheme, host or port) drops the `Authorization` and `Cookie` headers, so a server can't pass your
    /// credentials on to a third party. Linux's `URLSession` would otherwise forward them.
    public init() {
        self.init(transport: RedirectSafeSession.shared)
    }

    /// Creates a web service with a new `URLSession` for `configuration`, with the redirect rule of ``init()``.
    ///
    /// The session lives as long as this web service and its copies. Create the web service once and keep it,
    /// rather than one per request.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.default
    /// configuration.httpAdditionalHeaders = ["User-Agent": "SwiftTalk/1.0"]
    /// let webservice = Webservice(configuration: configuration)
    /// ```
    ///
    /// - Parameter configuration: The session's configuration, such as its idle timeout or extra headers.
    public init(configuration: URLSessionConfiguration) {
        self.init(transport: RedirectSafeSession(configuration: configuration))
    }

    /// Creates a web service that sends requests through a `URLSession` you configured.
    ///
    /// Your session's delegate decides how redirects are followed. Linux's `URLSession` forwards every header,
    /// `Authorization` included, to the redirect's target unless the delegate removes it; ``init()`` and
    /// ``init(configuration:)`` do that for you.
    ///
    /// - Parameter session: The session to use, such as `URLSession.shared`.
    public init(session: URLSession) {
        self.init(transport: session)
    }

    /// Creates a web service that sends requests through `transport`, such as a stub in tests.
    ///
    /// - Parameter transport: The transport to use.
    public init(transport: any Transport) {
        self.transport = transport
    }

    /// Loads a resource: sends its request, validates the response, and parses the body.
    ///
    /// The work runs off the caller's actor, so a `@MainActor` caller never parses on the main actor.
    ///
    /// ```swift
    /// let episodes = try await webservice.load(Episode.all)
    /// ```
    ///
    /// - Parameter resource: The resource to load.
    /// - Returns: The parsed model.
    /// - Throws: `CancellationError` when the calling task is cancelled, before or during the request (a
    ///   transport's `URLError(.cancelled)` is reported the same way on every platform); otherwise a
    ///   ``WebserviceError``: ``WebserviceError/transport(_:)`` when no response arrived (with `URLError(.timedOut)`
    ///   when the resource's ``Resource/timeout`` passed), and the errors of ``Resource/value(from:response:)``
    ///   when one did.
    @concurrent
    public func load<A>(_ resource: Resource<A>) async throws -> A {
        try Task.checkCancellation()
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await send(URLRequest(resource: resource), within: resource.timeout)
        } catch {
            if error is CancellationError { throw error }
            throw Task.isCancelled ? CancellationError() : WebserviceError.transport(error)
        }
        try Task.checkCancellation()
        return try resource.value(from: data, response: response)
    }

    /// Sends `request` through the transport, failing with `URLError(.timedOut)` if no response has fully arrived
    /// after `timeout` seconds.
    private func send(_ request: URLRequest, within timeout: TimeInterval?) async throws -> (Data, URLResponse) {
        guard let timeout else {
            return try await transport.data(for: request)
        }
        let transport = self.transport
        return try await withThrowingTaskGroup(of: (Data, URLResponse)?.self) { group in
            defer { group.cancelAll() }
            group.addTask { try await transport.data(for: request) }
            group.addTask {
                // NaN waits no time at all; the cap keeps the conversion to nanoseconds from overflowing.
                let seconds = timeout.isNaN ? 0 : min(max(timeout, 0), 1_000_000_000)
                try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                return nil
            }
            guard case let response?? = try await group.next() else {
                let reason = "The resource's timeout of \(timeout) s passed before the response arrived."
                throw URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: reason])
            }
            return response
        }
    }
}
