import Foundation
import ResourceKit
import Testing

/// A model with an `Int` ID and the default resources, as the fixtures `podcasts.json` and `podcast.json` have it.
private struct Podcast: RemoteModel, Equatable {
    var id: Int
    var name: String
    static let collectionURL = baseURL.appendingPathComponent("podcasts")
}

/// A model with a `String` ID under a collection URL with a trailing slash and a query.
private struct Track: RemoteModel {
    var id: String
    static let collectionURL = URL(string: "https://api.example.com/v2/tracks/?key=abc")!
}

/// A model that customizes the decoder and the path segment of its `UUID` IDs.
private struct Speaker: RemoteModel, Equatable {
    var id: UUID
    var fullName: String
    static let collectionURL = baseURL.appendingPathComponent("speakers")

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    static func pathComponent(for id: UUID) -> String { id.uuidString.lowercased() }
}

/// A model that replaces a default resource with its own.
private struct Draft: RemoteModel {
    var id: Int
    static let collectionURL = baseURL.appendingPathComponent("drafts")
    static var all: Resource<[Draft]> {
        Resource(get: collectionURL, headers: ["Authorization": "Bearer abc"])
    }
}

/// `Model.all` as generic code sees it: only a protocol requirement reaches the model's own implementation.
private func allResource<Model: RemoteModel>(of model: Model.Type) -> Resource<[Model]> {
    Model.all
}

@Suite struct RemoteModelTests {
    @Test func allIsAGETOfTheCollection() throws {
        #expect(Podcast.all.url.absoluteString == "https://api.example.com/podcasts")
        #expect(Podcast.all.method == .get)
        #expect(Podcast.all.headers == ["Accept": "application/json"])
        #expect(
            try Podcast.all.parse(fixture("podcasts.json")) == [
                Podcast(id: 1, name: "Swift Talk"), Podcast(id: 2, name: "Swift by Sundell"),
            ])
    }

    @Test func oneIsAGETOfTheItemsURL() throws {
        let one = try Podcast.one(id: 7)
        #expect(one.url.absoluteString == "https://api.example.com/podcasts/7")
        #expect(one.method == .get)
        #expect(one.headers == ["Accept": "application/json"])
        #expect(try one.parse(fixture("podcast.json")) == Podcast(id: 7, name: "Swift Talk"))
    }

    @Test(arguments: [
        ("a/b", "a%2Fb"),
        ("what? #1", "what%3F%20%231"),
        ("100%", "100%25"),
        ("Köln", "K%C3%B6ln"),
        ("...", "..."),
        ("v1.2-beta_3~", "v1.2-beta_3~"),
    ])
    func idIsPercentEncodedAsOneSegment(id: String, segment: String) throws {
        #expect(try Track.one(id: id).url.absoluteString == "https://api.example.com/v2/tracks/\(segment)?key=abc")
    }

    @Test(arguments: ["", ".", ".."])
    func idThatIsNoSegmentThrowsInsteadOfNamingTheCollection(id: String) throws {
        let error = try #require(throws: WebserviceError.self) { try Track.one(id: id) }
        let underlying = try requireCase(\.encoding, of: error)
        #expect("\(underlying)".contains("The ID \"\(id)\" can't name an item"))
    }

    @Test func collectionURLsQueryAndTrailingSlashAreKept() throws {
        #expect(Track.all.url.absoluteString == "https://api.example.com/v2/tracks/?key=abc")
        #expect(try Track.one(id: "1").url.absoluteString == "https://api.example.com/v2/tracks/1?key=abc")
    }

    @Test func modelsChooseTheirDecoderAndPathSegment() throws {
        let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let body = Data(#"{"id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "full_name": "Chris Eidhof"}"#.utf8)
        let one = try Speaker.one(id: id)
        #expect(one.url.absoluteString == "https://api.example.com/speakers/e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        #expect(try one.parse(body) == Speaker(id: id, fullName: "Chris Eidhof"))
        #expect(try Speaker.all.parse(Data("[\(String(decoding: body, as: UTF8.self))]".utf8)).count == 1)
    }

    @Test func aModelsOwnResourceReplacesTheDefaultEvenInGenericCode() {
        #expect(Draft.all.headers["Authorization"] == "Bearer abc")
        #expect(allResource(of: Draft.self).headers["Authorization"] == "Bearer abc")
        #expect(allResource(of: Podcast.self).headers == ["Accept": "application/json"])
    }
}
