import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a request and returns the response's head and its body as it arrives: the one piece of ``Webservice`` that
/// touches the network.
///
/// ``URLSessionTransport``, `AsyncHTTPClientTransport` and ``FileTransport`` conform; conform your own type to stub
/// the network in tests or to put another HTTP client behind ``Webservice`` (see <doc:Transports>). The web service
/// calls ``send(_:context:)`` alone; everything a transport needs besides the request is in the ``LoadContext``: the
/// file to upload, the progress to report, the body limit and the time left. A stub that has the whole body at once
/// implements ``data(for:)`` instead, and gets ``send(_:context:)`` from it. A transport should stop promptly when its
/// task is cancelled.
///
/// A transport that adds credentials of its own, such as cookies or a configured `Authorization`, must add none to a
/// request whose ``LoadContext/sendsCredentials`` is `false` (a page another origin's server led to), or throw
/// `WebserviceError(.credentialsRefused)`: it implements ``send(_:context:)``, which has the context.
///
/// ```swift
/// struct FixtureTransport: Transport {
///     var body: Data
///     func send(_ request: URLRequest, context: LoadContext) async throws -> (Response, ResponseBody) {
///         (Response(statusCode: 200), ResponseBody(body))
///     }
/// }
/// ```
public protocol Transport: Sendable {
    /// Sends `request` for the load `context` describes, and returns the response's head (its ``Response/body``
    /// empty) and its body as it arrives.
    ///
    /// The web service reads the body once, enforcing ``LoadContext/maxBodySize``, saving a download and reporting
    /// progress as the chunks arrive, or hands it to a stream's loop. The request's body is `httpBody`, or the file at
    /// ``LoadContext/bodyFile``.
    func send(_ request: URLRequest, context: LoadContext) async throws -> (Response, ResponseBody)

    /// Sends `request` and returns the whole body and the response: an adapter for a transport that has the whole
    /// body at once, never called by the web service.
    ///
    /// Implement one of ``send(_:context:)`` and `data(for:)`: each has a default made of the other.
    func data(for request: URLRequest) async throws -> (Data, URLResponse)

    /// The header fields the transport adds to each request that doesn't set them itself, such as a session's
    /// `User-Agent`: ``Webservice`` sets them on the requests it builds, so that they key its cache, and takes them
    /// off a request that may carry no credentials. The default is none.
    var additionalHeaderFields: [String: String] { get }
}

extension Transport {
    /// Sends `request` with ``data(for:)``, with the file of ``LoadContext/bodyFile`` read into memory first, and
    /// returns the whole body; an upload's progress is reported once the response arrived.
    public func send(_ request: URLRequest, context: LoadContext) async throws -> (Response, ResponseBody) {
        guard DefaultSend.running != ObjectIdentifier(Self.self) else { throw DefaultSend.unimplemented }
        return try await sendWhole(request, context: context) { request in
            try await DefaultSend.$running.withValue(ObjectIdentifier(Self.self)) { try await data(for: request) }
        }
    }

    /// ``send(_:context:)`` through `data`, a function that returns the whole body: the default, and the way of a
    /// session that isn't the transport's own.
    func sendWhole(
        _ request: URLRequest,
        context: LoadContext,
        data: (URLRequest) async throws -> (Data, URLResponse)
    ) async throws -> (Response, ResponseBody) {
        var request = request
        if let file = context.bodyFile {
            request.httpBody = try await offCooperativePool { try file.regularFileContents() }
        }
        let (body, response) = try await data(request)
        guard let http = response as? HTTPURLResponse else { throw WebserviceError(.nonHTTPResponse(body: body)) }
        if context.bodyFile != nil, let bytes = request.httpBody.map({ Int64($0.count) }) {
            context.progress?(TransferProgress(isUpload: true, bytes: bytes, expectedBytes: bytes))
        }
        return (Response(http, body: Data()), ResponseBody(body))
    }

    /// Sends `request` with ``send(_:context:)`` and collects the whole body: the request goes with the transport's
    /// ``additionalHeaderFields`` it doesn't set itself.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        guard DefaultSend.running != ObjectIdentifier(Self.self) else { throw DefaultSend.unimplemented }
        var request = request
        for (name, value) in additionalHeaderFields where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        do {
            let (head, body) = try await DefaultSend.$running.withValue(ObjectIdentifier(Self.self)) {
                try await send(request, context: LoadContext())
            }
            let data = try await body.collect(upTo: .max)
            guard let response = head.httpURLResponse() else { throw URLError(.badServerResponse) }
            return (data, response)
        } catch let error as URLError {
            // Redacted as ``Webservice`` reports it, so a caller using the transport alone never logs a credential.
            throw Redaction.sanitized(error, removing: Redaction.secrets(of: request))
        }
    }

    /// None.
    public var additionalHeaderFields: [String: String] { [:] }
}

/// The two default implementations of ``Transport``, each made of the other: a transport that implements neither
/// fails with a clear error rather than recursing.
enum DefaultSend {
    /// The transport type whose default is running in this task.
    ///
    /// A task local, as no explicit value can reach the other default: both signatures are the protocol's public
    /// requirements, and a transport's own implementation of one sits between them and passes nothing on.
    @TaskLocal static var running: ObjectIdentifier?

    /// The error of a transport that implements neither.

    static let unimplemented = URLError(
        .unsupportedURL,
        userInfo: [NSLocalizedDescriptionKey: "The transport implements neither send(_:context:) nor data(for:)."])
}
