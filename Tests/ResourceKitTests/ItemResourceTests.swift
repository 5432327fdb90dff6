import Foundation
import ResourceKit
import Testing

/// A model with an `Int` ID, as the fixtures `podcasts.json` and `podcast.json` have it, and its resources.
private struct Podcast: Decodable, Equatable {
    var id: Int
    var name: String
    static let collectionURL = baseURL.appendingPathComponent("podcasts")
    static let all = Resource<[Podcast]>(get: collectionURL)
    static func one(id: Int) throws(WebserviceError) -> Resource<Podcast> { try Resource(get: collectionURL, item: id) }
}

/// A collection URL with a trailing slash and a query.
private let tracksURL = URL(string: "https://api.example.com/v2/tracks/?key=abc")!

/// A model whose resources use a decoder of their own and a lowercased `UUID` as the path segment.
private struct Speaker: Decodable, Equatable {
    var id: UUID
    var fullName: String
    static let collectionURL = baseURL.appendingPathComponent("speakers")

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    static func one(id: UUID) throws(WebserviceError) -> Resource<Speaker> {
        try Resource(get: collectionURL, item: id.uuidString.lowercased(), decoder: decoder)
    }
}

@Suite struct ItemResourceTests {
    @Test func anItemIsAGETOfItsURL() throws {
        let one = try Podcast.one(id: 7)
        #expect(one.url.absoluteString == "https://api.example.com/podcasts/7")
        #expect(one.method == .get)
        #expect(one.headers == ["Accept": "application/json"])
        #expect(try one.parse(fixture("podcast.json")) == Podcast(id: 7, name: "Swift Talk"))
        #expect(try Podcast.all.parse(fixture("podcasts.json")).count == 2)
    }

    @Test(arguments: [
        ("a/b", "a%2Fb"),
        ("what? #1", "what%3F%20%231"),
        ("100%", "100%25"),
        ("Köln", "K%C3%B6ln"),
        ("...", "..."),
        ("v1.2-beta_3~", "v1.2-beta_3~"),
    ])
    func itemIsPercentEncodedAsOneSegment(id: String, segment: String) throws {
        let one = try Resource<Podcast>(get: tracksURL, item: id)
        #expect(one.url.absoluteString == "https://api.example.com/v2/tracks/\(segment)?key=abc")
    }

    @Test(arguments: ["", ".", ".."])
    func itemThatIsNoSegmentThrowsInsteadOfNamingTheCollection(id: String) throws {
        let error = try #require(throws: WebserviceError.self) { try Resource<Podcast>(get: tracksURL, item: id) }
        let underlying = try requireCase(\.encoding, of: error)
        #expect("\(underlying)".contains("The ID \"\(id)\" can't name an item"))
    }

    @Test func theCollectionURLsQueryAndTrailingSlashAreKept() throws {
        let one = try Resource<Podcast>(get: tracksURL, item: 1)
        #expect(one.url.absoluteString == "https://api.example.com/v2/tracks/1?key=abc")
    }

    @Test func headersAndTheDecoderAreTheCallers() throws {
        let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let body = Data(#"{"id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "full_name": "Chris Eidhof"}"#.utf8)
        let one = try Speaker.one(id: id)
        #expect(one.url.absoluteString == "https://api.example.com/speakers/e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        #expect(try one.parse(body) == Speaker(id: id, fullName: "Chris Eidhof"))
        let authorized = try Resource<Podcast>(get: tracksURL, item: 1, headers: ["Authorization": "Bearer abc"])
        #expect(authorized.headers == ["Authorization": "Bearer abc", "Accept": "application/json"])
    }
}
