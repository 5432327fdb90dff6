import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a request and returns the response: the one piece of ``Webservice`` that touches the network.
///
/// ``URLSessionTransport``, `AsyncHTTPClientTransport` and ``FileTransport`` conform; conform your own type to stub
/// the network in tests or to put another HTTP client behind ``Webservice`` (see <doc:Transports>). Implement
/// ``data(for:)``; implement ``send(_:context:)`` too when your client can hand over the body as it arrives. A
/// transport should stop promptly when its task is cancelled.
///
/// ```swift
/// struct FixtureTransport: Transport {
///     var body: Data
///     func data(for request: URLRequest) async throws -> (Data, URLResponse) {
///         (body, HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!)
///     }
/// }
/// ```
public protocol Transport: Sendable {
    /// Sends `request` and returns the response body and the response, or throws when no response could be
    /// obtained.
    func data(for request: URLRequest) async throws -> (Data, URLResponse)

    /// Sends `request` for the load `context` describes, and returns the response's head (its ``Response/body``
    /// empty) and its body as it arrives: what ``Webservice`` calls.
    ///
    /// The web service reads the body once, enforcing ``LoadContext/maxBodySize``, saving a download and reporting
    /// progress as the chunks arrive. The default sends with ``data(for:)``, with a file upload read into memory.
    func send(_ request: URLRequest, context: LoadContext) async throws -> (Response, ResponseBody)
}

extension Transport {
    /// Sends `request` with ``data(for:)``, and returns its whole body; a file upload is read into memory first, and
    /// its progress reported once the response arrived.
    public func send(_ request: URLRequest, context: LoadContext) async throws -> (Response, ResponseBody) {
        try await sendWhole(request, context: context) { request in try await data(for: request) }
    }

    /// ``send(_:context:)`` through `data`, a function that returns the whole body: the default, and the way of a
    /// transport that can't stream.
    func sendWhole(
        _ request: URLRequest,
        context: LoadContext,
        data: (URLRequest) async throws -> (Data, URLResponse)
    ) async throws -> (Response, ResponseBody) {
        var request = request
        let upload = context.transfer?.upload
        if let upload {
            request.httpBody = try await offCooperativePool { try upload.regularFileContents() }
        }
        let (body, response) = try await data(request)
        guard let http = response as? HTTPURLResponse else { throw WebserviceError(.nonHTTPResponse(body: body)) }
        if upload != nil, let bytes = request.httpBody.map({ Int64($0.count) }) {
            context.progress?(TransferProgress(direction: .upload, bytes: bytes, expectedBytes: bytes))
        }
        return (Response(http, body: Data()), ResponseBody(body))
    }
}
