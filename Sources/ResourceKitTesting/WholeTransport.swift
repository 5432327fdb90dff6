import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport of your tests that answers each request whole, as `URLSession.data(for:)` does: implement
/// ``answer(_:)``, and it is a `Transport`.
///
/// It is the few lines of a stub that has its answer at once: a file body reaches ``answer(_:)`` read into memory, as
/// bytes (`RequestBody/bytes()`), and the answer goes back as the response's head and its whole body.
///
/// ```swift
/// struct Fixture: WholeTransport {
///     func answer(_ request: Request) async throws -> (Data, URLResponse) {
///         (fixture, HTTPURLResponse(url: request.url, statusCode: 200, httpVersion: nil, headerFields: nil)!)
///     }
/// }
/// ```
public protocol WholeTransport: Transport {
    /// The whole body and the response that answer `request`.
    func answer(_ request: Request) async throws -> (Data, URLResponse)
}

extension WholeTransport {
    /// Sends `request` through ``answer(_:)``, its file body read into memory first.
    public func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        var request = request
        if let body = request.body, body.file != nil { request.body = RequestBody(try body.collect()) }
        let (data, response) = try await answer(request)
        return (try Response(response), ResponseBody(data))
    }
}

extension Transport {
    /// Sends `request` alone, as a test calls a transport, and collects its whole body.
    public func data(for request: Request) async throws -> (Data, Response) {
        let (head, body) = try await send(request, context: LoadContext())
        return (try await body.collect(upTo: .max), head)
    }
}

extension Request {
    /// The body's bytes, as a test compares them: `nil` for none or a file.
    public var bodyBytes: Data? { (try? body?.bytes()) ?? nil }
}
