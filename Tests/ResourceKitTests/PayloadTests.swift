import Foundation
import ResourceKit
import Testing

private let searchURL = baseURL.appendingPathComponent("search")
private let search = Resource<Payload<Episode>>(get: searchURL)

/// A model that decodes from any object, because every property is optional.
private struct Tag: Decodable, Equatable {
    var name: String?
}

/// A model written as a JSON array, `[x, y]`.
private struct Point: Decodable, Equatable {
    var x: Int
    var y: Int

    init(x: Int, y: Int) {
        (self.x, self.y) = (x, y)
    }

    init(from decoder: any Decoder) throws {
        var pair = try decoder.unkeyedContainer()
        (x, y) = (try pair.decode(Int.self), try pair.decode(Int.self))
        guard pair.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: pair, debugDescription: "A point has two coordinates.")
        }
    }
}

extension Payload {
    /// The case's name.
    fileprivate var shape: String {
        switch self {
        case .one: "one"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }
}

@Suite struct PayloadTests {
    @Test func anObjectThatIsAModelIsOne() throws {
        #expect(try search.parse(fixture("episode.json")) == .one(Episode(id: "1", title: "Networking")))
    }

    @Test func anArrayOfModelsIsArray() throws {
        let episodes = try Episode.all.parse(fixture("episodes.json"))
        #expect(try search.parse(fixture("episodes.json")) == .array(episodes))
    }

    @Test func anObjectOfModelsIsDictionary() throws {
        #expect(
            try search.parse(fixture("episodes-by-id.json"))
                == .dictionary([
                    "1": Episode(id: "1", title: "Networking"),
                    "2": Episode(id: "2", title: "Networking: POST Requests"),
                ]))
    }

    @Test func anObjectThatDecodesAsBothIsOne() throws {
        let body = Data(#"{"a": {"name": "swift"}, "b": {"name": "networking"}}"#.utf8)
        #expect(try JSONDecoder().decode(Payload<Tag>.self, from: body) == .one(Tag(name: nil)))
    }

    @Test func anArrayIsTriedAsAnArrayOfModelsBeforeAsOneModel() throws {
        #expect(try JSONDecoder().decode(Payload<Point>.self, from: Data("[1, 2]".utf8)) == .one(Point(x: 1, y: 2)))
        #expect(
            try JSONDecoder().decode(Payload<Point>.self, from: Data("[[1, 2], [3, 4]]".utf8))
                == .array([Point(x: 1, y: 2), Point(x: 3, y: 4)]))
    }

    @Test func aScalarIsOne() throws {
        #expect(try JSONDecoder().decode(Payload<String>.self, from: Data(#""hello""#.utf8)) == .one("hello"))
        #expect(try JSONDecoder().decode(Payload<String>.self, from: Data(#"["a", "b"]"#.utf8)) == .array(["a", "b"]))
        #expect(try JSONDecoder().decode(Payload<Int?>.self, from: Data("null".utf8)) == .one(nil))
    }

    @Test func emptyCollectionsKeepTheirShape() throws {
        #expect(try search.parse(Data("[]".utf8)) == .array([]))
        #expect(try search.parse(Data("{}".utf8)) == .dictionary([:]))
    }

    /// The fixture, the shape, and the model's `init(from:)` calls: the dictionary's one more is the object tried as
    /// a model.
    @Test(arguments: [
        ("episode.json", "one", 1), ("episodes.json", "array", 3), ("episodes-by-id.json", "dictionary", 3),
    ])
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func theBodyIsParsedOnceAndEachModelDecodedOnce(fixtureName: String, shape: String, inits: Int) throws {
        let decoder = CountingJSONDecoder()
        let payload = try Resource<Payload<Episode>>(get: searchURL, decoder: decoder).parse(fixture(fixtureName))
        #expect(payload.shape == shape)
        #expect(decoder.decodeCalls.count == 1, "parsed more than once")
        #expect(decoder.modelInits.count == inits)
    }

    @Test func anObjectThatFitsNoShapeThrowsTypeMismatchListingWhatWasTried() throws {
        let error = try #require(throws: DecodingError.self) {
            try search.parse(fixture("episodes-by-id-invalid.json"))
        }
        let (type, context) = try requireCase(\.typeMismatch, of: error)
        #expect(type is Payload<Episode>.Type)
        #expect(context.codingPath.isEmpty)
        #expect(
            context.debugDescription == """
                Expected Episode, or an array or object of it, but found an object that fails as Episode, missing key \
                "id" at the top level; and as [String: Episode], expected Dictionary<String, Any> at [2] (Expected to decode \
                Dictionary<String, Any> but found a string instead.).
                """)
        #expect(try requireCase(\.keyNotFound, of: context.underlyingError as? DecodingError).key.stringValue == "id")
    }

    @Test func anArrayWithAnInvalidElementThrowsTheElementsError() throws {
        let error = try #require(throws: DecodingError.self) {
            try search.parse(fixture("episodes-missing-title.json"))
        }
        let context = try requireCase(\.typeMismatch, of: error).context
        #expect(
            context.debugDescription.contains(#"found an array that fails as [Episode], missing key "title" at [1]"#))
        let (key, elementContext) = try requireCase(\.keyNotFound, of: context.underlyingError as? DecodingError)
        #expect(key.stringValue == "title")
        #expect(elementContext.codingPath.map(\.intValue) == [1])
    }

    @Test(arguments: [("42", "a number"), (#""text""#, "a string"), ("true", "a Boolean"), ("null", "null")])
    func aScalarThatIsNoModelNamesWhatWasFound(body: String, kind: String) throws {
        let error = try #require(throws: DecodingError.self) { try search.parse(Data(body.utf8)) }
        let context = try requireCase(\.typeMismatch, of: error).context
        #expect(context.debugDescription.hasPrefix("Expected Episode, or an array or object of it, but found \(kind) "))
    }

    @Test func theWebserviceErrorDescriptionSaysWhatWasTried() throws {
        let error = try #require(throws: WebserviceError.self) {
            try search.value(from: fixture("episodes-by-id-invalid.json"), response: httpResponse(200))
        }
        #expect(String(describing: error).contains("found an object that fails as Episode"))
    }

    @Test func aPayloadCanBeAtACodingPath() throws {
        let entries = Resource<Payload<Episode>>(get: searchURL, at: ["feed", "entry"])
        let feed: Payload<Episode> = .array([
            Episode(id: "1", title: "Networking"), Episode(id: "2", title: "Networking: POST Requests"),
            Episode(id: "3", title: "Loading View Controllers"),
        ])
        #expect(try entries.parse(fixture("feed.json")) == feed)
        let error = try #require(throws: DecodingError.self) {
            try Resource<Payload<Episode>>(get: searchURL, at: ["meta"]).parse(fixture("feed.json"))
        }
        let context = try requireCase(\.typeMismatch, of: error).context
        #expect(context.codingPath.map(\.stringValue) == ["meta"])
    }
}
