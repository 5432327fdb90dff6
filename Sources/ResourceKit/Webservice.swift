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

    /// Creates a web service that sends requests through a `URLSession`.
    ///
    /// - Parameter session: The session to use. Defaults to `URLSession.shared`.
    public init(session: URLSession = .shared) {
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
    ///   ``WebserviceError``: ``WebserviceError/transport(_:)`` when no response arrived, and the errors of
    ///   ``Resource/value(from:response:)`` when one did.
    @concurrent
    public func load<A>(_ resource: Resource<A>) async throws -> A {
        try Task.checkCancellation()
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await transport.data(for: URLRequest(resource: resource))
        } catch {
            if error is CancellationError { throw error }
            throw Task.isCancelled ? CancellationError() : WebserviceError.transport(error)
        }
        try Task.checkCancellation()
        return try resource.value(from: data, response: response)
    }
}
