import Foundation
import ResourceKit
import Testing

@Suite struct ResourceDecodableTests {
    @Test func getDecodesAValidFixture() throws {
        let episodes = try Episode.all.parse(fixture("episodes.json"))
        #expect(episodes.map(\.id) == ["1", "2", "3"])
        #expect(episodes.first == Episode(id: "1", title: "Networking"))
    }

    @Test func getIsAPlainGETThatAsksForJSON() {
        #expect(Episode.all.method == .get)
        #expect(Episode.all.headers == ["Accept": "application/json"])
        #expect(Episode.all.url.absoluteString == "https://api.example.com/episodes")
    }

    @Test func getKeepsTheCallersHeaders() {
        let authed = Resource<[Episode]>(get: baseURL, headers: ["Authorization": "Bearer abc"])
        #expect(authed.headers == ["Authorization": "Bearer abc", "Accept": "application/json"])
    }

    @Test func getUsesTheGivenDecoder() throws {
        struct Stamp: Decodable, Equatable { var at: Date }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let stamp = Resource<Stamp>(get: baseURL, decoder: decoder)
        #expect(try stamp.parse(Data(#"{"at": 60}"#.utf8)) == Stamp(at: Date(timeIntervalSince1970: 60)))
    }

    @Test func invalidJSONThrowsDataCorrupted() throws {
        let error = try #require(throws: DecodingError.self) { try Episode.all.parse(fixture("episodes-invalid.json")) }
        guard case .dataCorrupted = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
    }

    @Test func missingKeyThrowsKeyNotFoundWithItsCodingPath() throws {
        let error = try #require(throws: DecodingError.self) {
            try Episode.all.parse(fixture("episodes-missing-title.json"))
        }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "title")
        #expect(context.codingPath.map { $0.intValue } == [1])
    }

    @Test func wrongShapeThrowsTypeMismatch() throws {
        let error = try #require(throws: DecodingError.self) { try Episode.all.parse(fixture("episode.json")) }
        guard case .typeMismatch = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
    }

    @Test func emptyBodyThrowsADecodingError() {
        #expect(throws: DecodingError.self) { try Episode.all.parse(fixture("empty.json")) }
    }

    @Test(arguments: [
        HTTPMethod<Episode>.post(Episode(id: "4", title: "New")),
        .put(Episode(id: "4", title: "Replaced")),
        .patch(Episode(id: "4", title: "Patched")),
    ])
    func encodableBodyIsSentAsJSON(method: HTTPMethod<Episode>) throws {
        let resource = try Resource<Episode>(url: baseURL, method: method)
        #expect(resource.method.name == method.name)
        let body = try #require(resource.method.body)
        #expect(try JSONDecoder().decode(Episode.self, from: body) == method.body)
        #expect(resource.headers == ["Content-Type": "application/json", "Accept": "application/json"])
        #expect(try resource.parse(fixture("episode.json")) == Episode(id: "1", title: "Networking"))
    }

    @Test func encodableBodyUsesTheGivenEncoder() throws {
        struct Draft: Encodable { var publishedAt: Date }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let resource = try Resource<Episode>(
            url: baseURL,
            method: .post(Draft(publishedAt: Date(timeIntervalSince1970: 0))),
            encoder: encoder
        )
        let body = try #require(resource.method.body)
        #expect(String(decoding: body, as: UTF8.self) == #"{"publishedAt":"1970-01-01T00:00:00Z"}"#)
    }

    @Test func encodingFailureThrowsEncodingErrorInsteadOfCrashing() throws {
        struct Reading: Encodable { var value: Double }
        let error = try #require(throws: WebserviceError.self) {
            try Resource<Episode>(url: baseURL, method: .post(Reading(value: .nan)))
        }
        guard case .encoding(let underlying) = error else {
            Issue.record("expected encoding, got \(error)")
            return
        }
        #expect(underlying is EncodingError)
        #expect(error.statusCode == nil)
        #expect(error.body == nil)
    }

    @Test func encodableBodyKeepsACallersContentType() throws {
        let resource = try Resource<Episode>(
            url: baseURL,
            method: .post(Episode(id: "1", title: "t")),
            headers: ["content-type": "application/merge-patch+json"]
        )
        #expect(resource.headers == ["content-type": "application/merge-patch+json", "Accept": "application/json"])
    }

    @Test func dataBodyIsSentUnchangedNotReEncoded() throws {
        let bytes = try fixture("episode.json")
        let put = Resource<Episode>(url: baseURL, method: .put(bytes))
        #expect(put.method == .put(bytes))
        #expect(put.headers == ["Content-Type": "application/json", "Accept": "application/json"])
        let copied = Resource<Episode>(url: baseURL, method: put.method)
        #expect(copied.method.body == bytes)
    }

    @Test func bodilessMethodsDecodeTheResponse() throws {
        let delete = Resource<Episode>(url: baseURL.appendingPathComponent("episodes/1"), method: .delete)
        #expect(delete.method == .delete)
        #expect(delete.headers == ["Accept": "application/json"])
        #expect(try delete.parse(fixture("episode.json")) == Episode(id: "1", title: "Networking"))
    }
}
