import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The end of the pipeline: hands the request to the transport and makes one ``Response`` of what comes back.
///
/// A request whose load may not carry credentials loses those a middleware added. ResourceKit's own transports get
/// the whole ``LoadContext`` (``HeadTransport``); another transport gets the upload in memory, and its body is saved
/// and limited afterwards. Errors become what ``Webservice/load(_:)`` throws, redacted once, here.
struct Sending: Sendable {
    let transport: any Transport
    /// ``transport`` when it takes the whole context, found once rather than with a dynamic cast per load.
    let head: (any HeadTransport)?

    init(transport: any Transport) {
        self.transport = transport
        head = transport as? any HeadTransport
    }

    func send(_ request: URLRequest, context: LoadContext) async throws -> Response {
        let request = context.sendsCredentials ? request : request.withoutCredentials
        var response: Response
        do {
            if let head {
                response = try await head.response(to: request, context: context)
            } else if let transfer = context.transfer {
                response = try await transfer.buffered(request, maxBodySize: context.maxBodySize) { request in
                    try await plain(request, maxBodySize: context.maxBodySize)
                }
            } else {
                response = try await plain(request, maxBodySize: context.maxBodySize)
            }
        } catch {
            throw Self.reported(error, of: request, attempts: context.attempt)
        }
        response.request = request
        response.attempts = context.attempt
        return response
    }

    /// Sends `request` through a transport that returns a `URLResponse`, and checks the body's size afterwards.
    private func plain(_ request: URLRequest, maxBodySize: Int?) async throws -> Response {
        let (body, urlResponse) =
            if let maxBodySize {
                try await transport.data(for: request, maxBodySize: maxBodySize)
            } else {
                try await transport.data(for: request)
            }
        guard let http = urlResponse as? HTTPURLResponse else { throw WebserviceError.nonHTTPResponse(body: body) }
        if let maxBodySize, body.count > maxBodySize { throw WebserviceError.bodyTooLarge(limit: maxBodySize) }
        return Response(http, body: body)
    }

    /// A transport's `error` as ``Webservice/load(_:)`` reports it: ``WebserviceError/transport(_:)`` without
    /// `request`'s credentials, counting `attempts`, or `CancellationError` when the task was cancelled; a
    /// ``WebserviceError`` such as ``WebserviceError/bodyTooLarge(limit:)`` stays as it is.
    ///
    /// A TLS or decoding failure that Linux `URLSession` reports as `URLError(.unknown)` gets the code Apple platforms
    /// use, such as `.serverCertificateUntrusted`.
    static func reported(_ error: any Error, of request: URLRequest, attempts: Int = 1) -> any Error {
        if error is CancellationError || error is WebserviceError { return error }
        if Task.isCancelled { return CancellationError() }
        let standardized = URLError.standardizing(error)
        return WebserviceError.transport(Redaction.sanitized(standardized, removing: Redaction.secrets(of: request)))
            .counting(attempts: attempts)
    }
}
