import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Resource<Void>`, for a request whose answer has no model; its bodies are in ``RequestBodyTests``.
@Suite struct ResourceVoidTests {
    private let episodeURL = baseURL.appendingPathComponent("episodes/1")

    @Test func deleteIsOneLineWithoutBodyOrHeaders() throws {
        let request = URLRequest(resource: try Resource<Void>(url: episodeURL, method: .delete))
        #expect(request.httpMethod == "DELETE")
        #expect(request.httpBody == nil)
        #expect(request.allHTTPHeaderFields ?? [:] == [:])
        #expect(request.url?.absoluteString == "https://api.example.com/episodes/1")
        #expect(try Resource<Void>(url: episodeURL).method.name == "GET")
    }

    @Test(arguments: [204, 200, 202])
    func anyBodyOfAnAcceptableResponseIsIgnored(statusCode: Int) throws {
        let delete = try Resource<Void>(url: episodeURL, method: .delete)
        try delete.value(from: Data(), response: httpResponse(statusCode))
        try delete.value(from: fixture("episode.json"), response: httpResponse(statusCode))
        try delete.value(from: Data([0xFF, 0x00]), response: httpResponse(statusCode))
    }

    @Test func unacceptableStatusStillThrowsWithTheBody() throws {
        let body = try fixture("error-404.json")
        let delete = try Resource<Void>(url: episodeURL, method: .delete)
        let error = try #require(throws: WebserviceError.self) {
            try delete.value(from: body, response: httpResponse(404))
        }
        let response = try requireCase(\.unacceptableStatus, of: error)
        #expect(response.statusCode == 404)
        #expect(response.body.data == body)
    }

    @Test func loadsThroughTheWebservice() async throws {
        let delete = try Resource<Void>(url: episodeURL, method: .delete)
        try await Webservice(transport: StubTransport.answering(.status(204))).load(delete)
        let failing = Webservice(transport: StubTransport.answering(.status(500)))
        await #expect(throws: WebserviceError.self) { try await failing.load(delete) }
    }
}
