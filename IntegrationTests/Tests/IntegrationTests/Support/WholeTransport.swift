import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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

extension Request {
    /// The body's bytes, as a test compares them: `nil` for none or a file.
    var bodyBytes: Data? { (try? body?.bytes()) ?? nil }
}
