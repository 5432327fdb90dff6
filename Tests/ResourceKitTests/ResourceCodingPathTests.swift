import Foundation
import ResourceKit
import Testing

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

@Suite struct ResourceCodingPathTests {
    @Test func decodesTheModelAtAKeyPath() throws {
        let entries = Resource<[Episode]>(get: feedURL, at: ["feed", "entry"])
        let episodes = try entries.parse(fixture("feed.json"))
        #expect(episodes.map(\.id) == ["1", "2", "3"])
        #expect(episodes.first == Episode(id: "1", title: "Networking"))
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
        let entries = Resource<[CountedEpisode]>(get: feedURL, at: ["feed", "entry"], decoder: decoder)
        #expect(try entries.parse(body).map(\.id) == ["1"])
        #expect(decoder.modelInits.count == 1)
    }

    @Test @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func anIndexDecodesOnlyThatElement() throws {
        let decoder = CountingJSONDecoder()
        let third = Resource<CountedEpisode>(get: feedURL, at: ["feed", "entry", 2], decoder: decoder)
        #expect(try third.parse(fixture("feed.json")).title == "Loading View Controllers")
        #expect(decoder.modelInits.count == 1)
    }

    @Test func elementsBeforeAnIndexMayBeInvalid() throws {
        let last = Resource<Episode>(get: feedURL, at: ["feed", "entry", 4])
        #expect(try last.parse(fixture("feed-partly-invalid.json")) == Episode(id: "5", title: "Swift Talk"))
    }

    @Test func missingKeyThrowsKeyNotFoundWhereTheWalkStopped() throws {
        let entries = Resource<[Episode]>(get: feedURL, at: ["feed", "entries"])
        let error = try #require(throws: DecodingError.self) { try entries.parse(fixture("feed.json")) }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "entries")
        #expect(context.codingPath.map(\.stringValue) == ["feed"])
        #expect(context.debugDescription == #"No key "entries" in the object at .feed."#)
    }

    @Test func missingKeyIsNamedInTheWebserviceErrorDescription() throws {
        let entries = Resource<[Episode]>(get: feedURL, at: ["feed", "entries"])
        let error = try #require(throws: WebserviceError.self) {
            try entries.value(from: fixture("feed.json"), response: httpResponse(200))
        }
        #expect(error.underlyingError is DecodingError)
        #expect(String(describing: error).contains(#"missing key "entries" at .feed"#))
    }

    @Test func missingTopLevelKeyStopsAtTheTopLevel() throws {
        let data = Resource<[Episode]>(get: feedURL, at: ["data", "entry"])
        let error = try #require(throws: DecodingError.self) { try data.parse(fixture("feed.json")) }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "data")
        #expect(context.codingPath.isEmpty)
        #expect(context.debugDescription == #"No key "data" in the object at the top level."#)
    }

    @Test(arguments: [3, 99, -1])
    func indexOutsideTheArrayThrowsKeyNotFound(index: Int) throws {
        let element = Resource<Episode>(get: feedURL, at: ["feed", "entry", .index(index)])
        let error = try #require(throws: DecodingError.self) { try element.parse(fixture("feed.json")) }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.intValue == index)
        #expect(context.codingPath.map(\.stringValue) == ["feed", "entry"])
        #expect(context.debugDescription.hasSuffix("of the array at .feed.entry, which has 3 elements."))
    }

    @Test(arguments: [["feed", "entry", "first"], ["feed", 0], ["meta", "generated", "value"]] as [CodingPath])
    func aPathThroughTheWrongKindOfValueThrowsTypeMismatch(path: CodingPath) throws {
        let resource = Resource<Episode>(get: feedURL, at: path)
        let error = try #require(throws: DecodingError.self) { try resource.parse(fixture("feed.json")) }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
        #expect(context.codingPath.count == path.components.count - 1)
    }

    @Test func errorsInsideTheModelCarryTheFullCodingPath() throws {
        let entries = Resource<[Episode]>(get: feedURL, at: ["feed", "entry"])
        let error = try #require(throws: DecodingError.self) { try entries.parse(fixture("feed-partly-invalid.json")) }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "title")
        #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["feed", "entry", "1"])
    }

    @Test func invalidJSONThrowsDataCorrupted() throws {
        let entries = Resource<[Episode]>(get: feedURL, at: ["feed", "entry"])
        let error = try #require(throws: DecodingError.self) { try entries.parse(fixture("episodes-invalid.json")) }
        guard case .dataCorrupted = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
    }

    @Test func emptyBodyThrowsADecodingError() {
        let entries = Resource<[Episode]>(get: feedURL, at: ["feed", "entry"])
        #expect(throws: DecodingError.self) { try entries.parse(fixture("empty.json")) }
    }

    @Test func emptyPathDecodesTheWholeDocument() throws {
        let all = Resource<[Episode]>(get: feedURL, at: [])
        #expect(try all.parse(fixture("episodes.json")) == Episode.all.parse(fixture("episodes.json")))
    }

    @Test func keysMatchAfterTheKeyDecodingStrategyAndANearMissIsPointedOut() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let body = Data(#"{"feed_entry": [{"id": "1", "title": "Networking"}]}"#.utf8)
        let converted = Resource<[Episode]>(get: feedURL, at: ["feedEntry"], decoder: decoder)
        #expect(try converted.parse(body).count == 1)
        let asWritten = Resource<[Episode]>(get: feedURL, at: ["feed_entry"], decoder: decoder)
        let error = try #require(throws: DecodingError.self) { try asWritten.parse(body) }
        guard case .keyNotFound(_, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(context.debugDescription.contains(#"It has "feedEntry""#))
    }

    @Test func keysWithDotsAreSingleKeys() throws {
        let body = Data(#"{"com.example.episode": {"id": "1", "title": "Networking"}}"#.utf8)
        let episode = Resource<Episode>(get: feedURL, at: ["com.example.episode"])
        #expect(try episode.parse(body) == Episode(id: "1", title: "Networking"))
    }

    @Test func theDecodersStrategiesApplyToTheValueAtThePath() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let stamp = Resource<Date>(get: feedURL, at: ["meta", "updated"], decoder: decoder)
        #expect(try stamp.parse(Data(#"{"meta": {"updated": 60}}"#.utf8)) == Date(timeIntervalSince1970: 60))
    }

    @Test func getAsksForJSONLikeAResourceWithoutAPath() {
        let entries = Resource<[Episode]>(get: feedURL, at: ["feed", "entry"], headers: ["Authorization": "Bearer a"])
        #expect(entries.method == .get)
        #expect(entries.url == feedURL)
        #expect(entries.headers == ["Authorization": "Bearer a", "Accept": "application/json"])
    }

    @Test func dataBodiedMethodsSendTheBytesAndDecodeAtThePath() throws {
        let bytes = try fixture("episode.json")
        let put = Resource<Episode>(url: feedURL, method: .put(bytes), at: ["data"])
        #expect(put.method == .put(bytes))
        #expect(put.headers == ["Content-Type": "application/json", "Accept": "application/json"])
        let answer = Data(#"{"data": {"id": "1", "title": "Networking"}, "meta": {"version": "x"}}"#.utf8)
        #expect(try put.parse(answer) == Episode(id: "1", title: "Networking"))
    }

    @Test func encodableBodiesAreSentAsJSONAndTheAnswerDecodesAtThePath() throws {
        let draft = Episode(id: "4", title: "New")
        let post = try Resource<Episode>(url: feedURL, method: .post(draft), at: ["data"])
        let body = try #require(post.method.body)
        #expect(try JSONDecoder().decode(Episode.self, from: body) == draft)
        #expect(post.headers == ["Content-Type": "application/json", "Accept": "application/json"])
        #expect(try post.parse(Data(#"{"data": {"id": "4", "title": "New"}}"#.utf8)) == draft)
    }

    @Test func anEncodingFailureThrowsInsteadOfCrashing() throws {
        struct Reading: Encodable { var value: Double }
        let error = try #require(throws: WebserviceError.self) {
            try Resource<Episode>(url: feedURL, method: .post(Reading(value: .nan)), at: ["data"])
        }
        guard case .encoding(let underlying) = error else {
            Issue.record("expected encoding, got \(error)")
            return
        }
        #expect(underlying is EncodingError)
    }
}
