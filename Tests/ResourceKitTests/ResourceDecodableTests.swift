import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private let feedURL = baseURL.appendingPathComponent("feed")

/// The whole of `feed.json` as a model: its siblings of `feed.entry` don't decode.
private struct FeedDocument: Decodable {
    struct Meta: Decodable {
        var generated: Date
        var tags: [Int]
    }

    struct Feed: Decodable {
        var title: String
        var author: String
        var entry: [Episode]
    }

    var meta: Meta
    var feed: Feed
}

/// JSON `Decodable` resources: `Resource(get:at:)` and `Resource(url:method:at:)`, decoding the whole body or the value
/// at a coding path.
@Suite struct ResourceDecodableTests {
    // MARK: Requests

    @Test(arguments: [[], ["feed", "entry"]] as [[String]])
    func getIsAPlainGETThatAsksForJSONAndKeepsTheCallersHeaders(path: [String]) {
        let entries = Resource<[Episode]>(get: feedURL, at: path, headers: ["Authorization": "Bearer a"])
        #expect(entries.method == .get)
        #expect(entries.url == feedURL)
        #expect(entries.headers == ["Authorization": "Bearer a", "Accept": "application/json"])
        #expect(Episode.all.headers == ["Accept": "application/json"])
        #expect(Episode.all.url.absoluteString == "https://api.example.com/episodes")
    }

    @Test(
        arguments: [
            ([], #"{"id": "1", "title": "Networking"}"#),
            (["data"], #"{"data": {"id": "1", "title": "Networking"}, "meta": {"version": "x"}}"#),
        ] as [([String], String)])
    func answerToAnyMethodDecodesAtThePath(path: [String], answer: String) throws {
        let methods: [HTTPMethod<any Encodable & Sendable>] = [
            .delete, .put(Data("{}".utf8)), .post(Episode(id: "2", title: "Draft")),
        ]
        for method in methods {
            let resource = try Resource<Episode>(url: feedURL, method: method, at: path)
            #expect(
                try resource.parse(Data(answer.utf8)) == Episode(id: "1", title: "Networking"), "\(method.name)")
        }
    }

    // MARK: Decoding

    @Test(arguments: [([], "episodes.json"), (["feed", "entry"], "feed.json")] as [([String], String)])
    func decodesTheModelAtThePath(path: [String], fixtureName: String) throws {
        let episodes = try Resource<[Episode]>(get: feedURL, at: path).parse(fixture(fixtureName))
        #expect(episodes.map(\.id) == ["1", "2", "3"])
        #expect(episodes.first == Episode(id: "1", title: "Networking"))
        #expect(try Episode.all.parse(fixture("episodes.json")) == episodes)
    }

    @Test(arguments: [([], "60"), (["meta", "updated"], #"{"meta": {"updated": 60}}"#)] as [([String], String)])
    func theDecodersStrategiesApplyToTheValueAtThePath(path: [String], body: String) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let stamp = Resource<Date>(get: feedURL, at: path, decoder: decoder)
        #expect(try stamp.parse(Data(body.utf8)) == Date(timeIntervalSince1970: 60))
    }

    @Test func siblingsThatWouldFailToDecodeAreNeverDecoded() throws {
        let body = try fixture("feed.json")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FeedDocument.self, from: body) }
        let entries = Resource<[Episode]>(get: feedURL, at: ["feed", "entry"])
        #expect(try entries.parse(body).count == 3)
    }

    @Test @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func onlyTheValueAtThePathIsDecodedInOnePass() throws {
        let decoder = CountingJSONDecoder()
        let body = Data(
            #"{"drafts": [{"id": "d", "title": "Draft"}], "feed": {"entry": [{"id": "1", "title": "One"}]}}"#.utf8)
        let entries = Resource<[Episode]>(get: feedURL, at: ["feed", "entry"], decoder: decoder)
        #expect(try entries.parse(body).map(\.id) == ["1"])
        #expect(decoder.modelInits.count == 1)
    }

    @Test @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func anIndexDecodesOnlyThatElement() throws {
        let decoder = CountingJSONDecoder()
        let third = Resource<Episode>(get: feedURL, at: ["feed", "entry", "2"], decoder: decoder)
        #expect(try third.parse(fixture("feed.json")).title == "Loading View Controllers")
        #expect(decoder.modelInits.count == 1)
    }

    @Test func elementsBeforeAnIndexMayBeInvalid() throws {
        let last = Resource<Episode>(get: feedURL, at: ["feed", "entry", "4"])
        #expect(try last.parse(fixture("feed-partly-invalid.json")) == Episode(id: "5", title: "Swift Talk"))
    }

    @Test func keysWithDotsAreSingleKeys() throws {
        let body = Data(#"{"com.example.episode": {"id": "1", "title": "Networking"}}"#.utf8)
        let episode = Resource<Episode>(get: feedURL, at: ["com.example.episode"])
        #expect(try episode.parse(body) == Episode(id: "1", title: "Networking"))
    }

    @Test func anIntegerStepIsAnIndexInAnArrayAndAKeyInAnObject() throws {
        let body = Data(#"{"0": [{"id": "1", "title": "One"}, {"id": "2", "title": "Two"}]}"#.utf8)
        let second = Resource<Episode>(get: feedURL, at: ["0", "1"])
        #expect(try second.parse(body) == Episode(id: "2", title: "Two"))
        let missing = Resource<Episode>(get: feedURL, at: ["feed", "0"])
        let error = try #require(throws: DecodingError.self) { try missing.parse(fixture("feed.json")) }
        #expect(try requireCase(\.keyNotFound, of: error).context.debugDescription.hasPrefix(#"No key "0""#))
    }

    // MARK: Errors

    @Test(
        arguments: [
            ([], "episodes-missing-title.json", ["1"]),
            (["feed", "entry"], "feed-partly-invalid.json", ["feed", "entry", "1"]),
        ] as [([String], String, [String])])
    func missingKeyInTheModelThrowsKeyNotFoundWithTheFullCodingPath(
        path: [String], fixtureName: String, codingPath: [String]
    ) throws {
        let entries = Resource<[Episode]>(get: feedURL, at: path)
        let error = try #require(throws: DecodingError.self) { try entries.parse(fixture(fixtureName)) }
        let (key, context) = try requireCase(\.keyNotFound, of: error)
        #expect(key.stringValue == "title")
        #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == codingPath)
    }

    @Test(
        arguments: [
            (["feed", "entries"], "entries", ["feed"], #"No key "entries" in the object at .feed."#),
            (["data", "entry"], "data", [], #"No key "data" in the object at the top level."#),
        ] as [([String], String, [String], String)])
    func missingKeyOnThePathThrowsKeyNotFoundWhereTheWalkStopped(
        path: [String], missing: String, stoppedAt: [String], description: String
    ) throws {
        let entries = Resource<[Episode]>(get: feedURL, at: path)
        let error = try #require(throws: DecodingError.self) { try entries.parse(fixture("feed.json")) }
        let (key, context) = try requireCase(\.keyNotFound, of: error)
        #expect(key.stringValue == missing)
        #expect(context.codingPath.map(\.stringValue) == stoppedAt)
        #expect(context.debugDescription == description)
    }

    @Test func missingKeyOnThePathIsNamedInTheWebserviceErrorDescription() throws {
        let entries = Resource<[Episode]>(get: feedURL, at: ["feed", "entries"])
        let error = try #require(throws: WebserviceError.self) {
            try entries.value(from: fixture("feed.json"), response: httpResponse(200))
        }
        #expect(error.underlyingError is DecodingError)
        #expect(String(describing: error).contains(#"missing key "entries" at .feed"#))
    }

    @Test(arguments: [3, 99, -1])
    func indexOutsideTheArrayThrowsKeyNotFound(index: Int) throws {
        let element = Resource<Episode>(get: feedURL, at: ["feed", "entry", String(index)])
        let error = try #require(throws: DecodingError.self) { try element.parse(fixture("feed.json")) }
        let (key, context) = try requireCase(\.keyNotFound, of: error)
        #expect(key.intValue == index)
        #expect(context.codingPath.map(\.stringValue) == ["feed", "entry"])
        #expect(context.debugDescription.hasSuffix("of the array at .feed.entry, which has 3 elements."))
    }

    @Test func wrongShapeThrowsTypeMismatch() throws {
        let error = try #require(throws: DecodingError.self) { try Episode.all.parse(fixture("episode.json")) }
        #expect(try requireCase(\.typeMismatch, of: error).context.codingPath.isEmpty)
    }

    @Test(arguments: [["feed", "entry", "first"], ["meta", "generated", "value"]] as [[String]])
    func aPathThroughTheWrongKindOfValueThrowsTypeMismatch(path: [String]) throws {
        let resource = Resource<Episode>(get: feedURL, at: path)
        let error = try #require(throws: DecodingError.self) { try resource.parse(fixture("feed.json")) }
        #expect(try requireCase(\.typeMismatch, of: error).context.codingPath.count == path.count - 1)
    }

    @Test func keysMatchAfterTheKeyDecodingStrategyAndANearMissIsPointedOut() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let body = Data(#"{"feed_entry": [{"id": "1", "title": "Networking"}]}"#.utf8)
        let converted = Resource<[Episode]>(get: feedURL, at: ["feedEntry"], decoder: decoder)
        #expect(try converted.parse(body).count == 1)
        let asWritten = Resource<[Episode]>(get: feedURL, at: ["feed_entry"], decoder: decoder)
        let error = try #require(throws: DecodingError.self) { try asWritten.parse(body) }
        #expect(try requireCase(\.keyNotFound, of: error).context.debugDescription.contains(#"It has "feedEntry""#))
    }

    /// Each decoding format, made into a resource whose parse result is left out, and a body it rejects as invalid.
    static let decodingFormats: [(format: String, resource: Resource<Void>, invalid: String)] = [
        ("Decodable", Episode.all.map { _ in }, "episodes-invalid.json"),
        (
            "Decodable at a path", Resource<[Episode]>(get: feedURL, at: ["feed", "entry"]).map { _ in },
            "episodes-invalid.json"
        ),
        ("LenientArray", Resource<LenientArray<Episode>>(get: feedURL).map { _ in }, "episodes-invalid.json"),
        ("Payload", Resource<Payload<Episode>>(get: feedURL).map { _ in }, "episodes-invalid.json"),
        (
            "property list",
            Resource<[String: Int]>(url: feedURL, propertyListDecoder: PropertyListDecoder()).map { _ in },
            "settings-invalid.plist"
        ),
    ]

    @Test(arguments: decodingFormats)
    func invalidBodyThrowsDataCorrupted(format: String, resource: Resource<Void>, invalid: String) throws {
        let error = try #require(throws: DecodingError.self, "\(format)") { try resource.parse(fixture(invalid)) }
        _ = try requireCase(\.dataCorrupted, of: error)
    }

    @Test(arguments: decodingFormats)
    func emptyBodyThrowsADecodingError(format: String, resource: Resource<Void>, invalid: String) {
        #expect(throws: DecodingError.self, "\(format)") { try resource.parse(fixture("empty.json")) }
    }
}
