import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

private let lenientEpisodes = Resource<LenientArray<Episode>>(get: baseURL.appendingPathComponent("episodes"))

/// A model that rejects some values with an error of its own, not a `DecodingError`.
private struct Rating: Decodable {
    struct OutOfRange: Error {}

    var stars: Int

    init(from decoder: any Decoder) throws {
        stars = try decoder.singleValueContainer().decode(Int.self)
        guard (1...5).contains(stars) else { throw OutOfRange() }
    }
}

/// A model whose error quotes the server's value, as decoders' messages do.
private struct Tag: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(String.self)
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown tag \(value)")
    }
}

@Suite struct LenientArrayTests {
    @Test func aValidArrayDecodesCompletely() throws {
        let episodes = try lenientEpisodes.parse(fixture("episodes.json"))
        #expect(try episodes.elements == Episode.all.parse(fixture("episodes.json")))
        #expect(episodes.failures.isEmpty)
    }

    @Test func invalidElementsAreSkippedAndEachIsReportedWithItsIndexAndError() throws {
        let episodes = try lenientEpisodes.parse(fixture("episodes-partly-invalid.json"))
        #expect(episodes.elements == [Episode(id: "1", title: "Networking"), Episode(id: "5", title: "Swift Talk")])
        #expect(episodes.failures.keys.sorted() == [1, 2, 3])
        #expect(
            episodes.failures.sorted { $0.key < $1.key }.map(\.value.summary) == [
                #"missing key "title" at [1]"#,
                "expected Dictionary<String, Any> but found null at [2]",
                "expected String at [3].id (Expected to decode String but found number instead.)",
            ])
        let (key, context) = try requireCase(\.keyNotFound, of: episodes.failures[1])
        #expect(key.stringValue == "title")
        #expect(context.codingPath.map(\.intValue) == [1])
    }

    /// Each failure reads in one line, in the order of the elements, rather than as a `DecodingError`'s dump.
    @Test func eachFailureHasAOneLineDescription() throws {
        let feed = try Resource<LenientArray<Episode>>(get: baseURL, at: ["feed", "entry"])
            .parse(Data(#"{"feed":{"entry":[{"id":"1","title":"A"},{"id":"2"},{"id":3,"title":"C"}]}}"#.utf8))
        #expect(
            feed.failureDescriptions == [
                #"element 1: missing key "title" at .feed.entry[1]"#,
                "element 2: expected String at .feed.entry[2].id (Expected to decode String but found number instead.)",
            ])
    }

    /// A server's value in a decoder's message can't start a log line of its own: its control characters are escaped.
    @Test func aFailuresDescriptionStaysOneLineWhateverTheServerSent() throws {
        let tags = try Resource<LenientArray<Tag>>(get: baseURL)
            .parse(Data(#"["a\nelement 9: forged\u001b[2J\u2028"]"#.utf8))
        #expect(
            tags.failureDescriptions == [
                #"element 0: data corrupted at [0] (unknown tag a\nelement 9: forged\u{1B}[2J\u{2028})"#
            ])
    }

    @Test func theStrictArrayStillFailsAsAWhole() {
        #expect(throws: DecodingError.self) { try Episode.all.parse(fixture("episodes-partly-invalid.json")) }
    }

    @Test @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func everyElementIsDecodedOnceEvenWhenItFails() throws {
        let decoder = CountingJSONDecoder()
        let episodes = try Resource<LenientArray<Episode>>(get: baseURL, decoder: decoder)
            .parse(fixture("episodes-partly-invalid.json"))
        #expect(episodes.elements.count + episodes.failures.count == 5)
        #expect(decoder.modelInits.count == 5)
        #expect(decoder.decodeCalls.count == 1)
    }

    @Test func aLenientArrayCanBeAtACodingPath() throws {
        let feed = Resource<LenientArray<Episode>>(get: baseURL, at: ["feed", "entry"])
        let episodes = try feed.parse(fixture("feed-partly-invalid.json"))
        #expect(episodes.elements.map(\.id) == ["1", "5"])
        #expect(episodes.failures.keys.sorted() == [1, 2, 3])
        #expect(episodes.failures[1]?.summary == #"missing key "title" at .feed.entry[1]"#)
    }

    @Test func anErrorOfTheModelsOwnIsWrappedWithItsCodingPath() throws {
        let ratings = try JSONDecoder().decode(LenientArray<Rating>.self, from: Data("[5, 9, 1]".utf8))
        #expect(ratings.elements.map(\.stars) == [5, 1])
        #expect(ratings.failures.keys.sorted() == [1])
        let context = try requireCase(\.dataCorrupted, of: ratings.failures[1])
        #expect(context.codingPath.map(\.intValue) == [1])
        #expect(context.underlyingError is Rating.OutOfRange)
    }

    @Test func aFailureCanBeThrown() throws {
        let episodes = try lenientEpisodes.parse(fixture("episodes-partly-invalid.json"))
        let thrown = try #require(throws: DecodingError.self) {
            if let failure = episodes.failures[1] { throw failure }
        }
        #expect(try requireCase(\.keyNotFound, of: thrown).context.codingPath.map(\.intValue) == [1])
    }

    @Test func anObjectThrowsTypeMismatch() throws {
        let error = try #require(throws: DecodingError.self) { try lenientEpisodes.parse(fixture("episode.json")) }
        #expect(try requireCase(\.typeMismatch, of: error).context.codingPath.isEmpty)
    }

    @Test func anEmptyArrayIsCompleteAndEmpty() throws {
        let episodes = try lenientEpisodes.parse(Data("[]".utf8))
        #expect(episodes.elements.isEmpty)
        #expect(episodes.failures.isEmpty)
    }
}
