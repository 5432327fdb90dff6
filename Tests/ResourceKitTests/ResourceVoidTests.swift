import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct ResourceVoidTests {
    private let episodeURL = baseURL.appendingPathComponent("episodes/1")

    @Test func deleteIsOneLineWithoutBodyOrHeaders() {
        let request = URLRequest(resource: Resource<Void>(url: episodeURL, method: .delete))
        #expect(request.httpMethod == "DELETE")
        #expect(request.httpBody == nil)
        #expect(request.allHTTPHeaderFields ?? [:] == [:])
        #expect(request.url?.absoluteString == "https://api.example.com/episodes/1")
    }

    @Test(arguments: [204, 200, 202])
    func anyBodyOfAnAcceptableResponseIsIgnored(statusCode: Int) throws {
        let delete = Resource<Void>(url: episodeURL, method: .delete)
        try delete.value(from: Data(), response: httpResponse(statusCode))
        try delete.value(from: fixture("episode.json"), response: httpResponse(statusCode))
        try delete.value(from: Data([0xFF, 0x00]), response: httpResponse(statusCode))
    }

    @Test func unacceptableStatusStillThrowsWithTheBody() throws {
        let body = try fixture("error-404.json")
        let error = try #require(throws: WebserviceError.self) {
            try Resource<Void>(url: episodeURL, method: .delete).value(from: body, response: httpResponse(404))
        }
        guard case .unacceptableStatus(404, _, body) = error else {
            Issue.record("expected unacceptableStatus(404), got \(error)")
            return
        }
    }

    @Test func encodableBodyIsSentAsJSON() throws {
        let episode = Episode(id: "1", title: "Renamed")
        let save = try Resource<Void>(url: episodeURL, method: .put(episode))
        #expect(save.method.name == "PUT")
        let body = try #require(save.method.body)
        #expect(try JSONDecoder().decode(Episode.self, from: body) == episode)
        #expect(save.headers == ["Content-Type": "application/json", "Accept": "application/json"])
        try save.value(from: Data(), response: httpResponse(204))
    }

    @Test func encodableBodyUsesTheGivenEncoderAndKeepsTheCallersHeaders() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        struct Rename: Encodable { var newTitle: String }
        let rename = try Resource<Void>(
            url: episodeURL,
            method: .patch(Rename(newTitle: "t")),
            headers: ["content-type": "application/merge-patch+json"],
            encoder: encoder
        )
        #expect(rename.method.body == Data(#"{"new_title":"t"}"#.utf8))
        #expect(rename.headers == ["content-type": "application/merge-patch+json", "Accept": "application/json"])
    }

    @Test func dataBodyIsSentUnchangedWithoutHeaders() {
        let bytes = Data("a=1&b=2".utf8)
        let post = Resource<Void>(url: episodeURL, method: .post(bytes))
        #expect(post.method == .post(bytes))
        #expect(post.headers.isEmpty)
    }

    @Test func encodingFailureThrowsEncodingError() throws {
        struct Reading: Encodable { var value: Double }
        let error = try #require(throws: WebserviceError.self) {
            try Resource<Void>(url: episodeURL, method: .post(Reading(value: .nan)))
        }
        guard case .encoding(let underlying) = error else {
            Issue.record("expected encoding, got \(error)")
            return
        }
        #expect(underlying is EncodingError)
    }

    @Test func loadsThroughTheWebservice() async throws {
        let service = Webservice(transport: StubTransport.answering(204, body: Data()))
        try await service.load(Resource<Void>(url: episodeURL, method: .delete))
        let failing = Webservice(transport: StubTransport.answering(500, body: Data()))
        await #expect(throws: WebserviceError.self) {
            try await failing.load(Resource<Void>(url: episodeURL, method: .delete))
        }
    }
}
