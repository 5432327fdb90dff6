import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Transport {
    /// Sends `request` alone, as a test calls a transport, and collects its whole body.
    func data(for request: Request) async throws -> (Data, Response) {
        let (head, body) = try await send(request, context: LoadContext())
        return (try await body.collect(upTo: .max), head)
    }
}

/// A test's transport that answers each request whole, as `URLSession.data(for:)` does: it sends through
/// ``answer(_:)``, a file's body read into memory first.
protocol WholeTransport: Transport {
    func answer(_ request: Request) async throws -> (Data, URLResponse)
}

extension WholeTransport {
    func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        var request = request
        if let file = request.body?.file { request.body = RequestBody(try Data(contentsOf: file)) }
        let (data, response) = try await answer(request)
        return (try Response(response), ResponseBody(data))
    }
}
