import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The framing rules of streamed bodies, checked on recorded bytes with no network, whole and cut at every byte.
struct StreamFramingTests {
    private static let url = URL(string: "https://api.example.com/stream")!
    private static let events = StreamingResource(Resource<Data>(url: url), serverSentEvents: { $0 })

    private struct Line: Codable, Equatable {
        var n: Int
    }

    /// The elements of `body` delivered in chunks of `size` bytes, parsed as a load would parse them.
    private static func elements<Element>(
        of body: String,
        in size: Int,
        _ stream: StreamingResource<Element>
    ) async throws -> [Element] {
        let bytes = Array(body.utf8)
        let chunks = stride(from: 0, to: bytes.count, by: size).map { Data(bytes[$0..<min($0 + size, bytes.count)]) }
        let transport = ChunkedTransport(chunks: chunks)
        var elements: [Element] = []
        for try await element in try await Webservice(transport: transport).load(stream) { elements.append(element) }
        return elements
    }

    /// The same elements whatever the chunks: whole, and cut into chunks of 1, 2, 3, 5 and 7 bytes.
    private static func expectSameElements<Element: Equatable>(
        _ body: String,
        _ stream: StreamingResource<Element>,
        _ expected: [Element],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(try stream.parse(Data(body.utf8)) == expected, sourceLocation: sourceLocation)
        for size in [1, 2, 3, 5, 7] {
            #expect(
                try await elements(of: body, in: size, stream) == expected, "\(size)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Server-sent events: the examples of the HTML standard, section 9.2.

    @Test func dataLinesAreJoinedWithLineFeeds() async throws {
        try await Self.expectSameElements(
            "data: YHOO\ndata: +2\ndata: 10\n\n", Self.events, [ServerSentEvent(data: "YHOO\n+2\n10")])
    }

    @Test func anIDLastsUntilAnEmptyOneAndAnUnendedEventIsDropped() async throws {
        let body = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n"
        try await Self.expectSameElements(
            body, Self.events,
            [ServerSentEvent(data: "first event", id: "1"), ServerSentEvent(data: "second event")])
    }

    @Test func emptyDataFieldsMakeEmptyLines() async throws {
        try await Self.expectSameElements(
            "data\n\ndata\ndata\n\ndata:", Self.events, [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")])
    }

    @Test func oneSpaceAfterTheColonIsDropped() async throws {
        try await Self.expectSameElements(
            "data:test\n\ndata: test\n\ndata:  test\n\n", Self.events,
            [ServerSentEvent(data: "test"), ServerSentEvent(data: "test"), ServerSentEvent(data: " test")])
    }

    @Test(arguments: ["\r\n", "\r", "\n"])
    func everyLineEndEndsALine(_ end: String) async throws {
        let body = ["event: add", "data: 1", "id: 7", "", "data: 2", "", ""].joined(separator: end)
        try await Self.expectSameElements(
            body, Self.events,
            [ServerSentEvent(type: "add", data: "1", id: "7"), ServerSentEvent(data: "2", id: "7")])
    }

    @Test func aByteOrderMarkAtTheStartIsSkipped() async throws {
        try await Self.expectSameElements(
            "\u{FEFF}data: a\n\n\u{FEFF}data: b\n\n", Self.events, [ServerSentEvent(data: "a")])
    }

    @Test func unknownFieldsCommentsAndEventsWithoutDataAreIgnored() async throws {
        let body = "retry: 3000\nevent: ping\n\n:comment\nfoo: bar\nDATA: shouted\ndata: kept\n\n"
        try await Self.expectSameElements(body, Self.events, [ServerSentEvent(data: "kept")])
    }

    @Test func anIDWithANullCharacterIsIgnored() async throws {
        try await Self.expectSameElements(
            "id: 1\ndata: a\n\nid: 2\u{0}\ndata: b\n\n", Self.events,
            [ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b", id: "1")])
    }

    @Test func textThatIsNotUTF8IsReplacedNotDropped() throws {
        var body = Data("data: a".utf8)
        body.append(0xFF)
        body.append(contentsOf: "b\n\n".utf8)
        #expect(try Self.events.parse(body) == [ServerSentEvent(data: "a\u{FFFD}b")])
    }

    @Test func anEventPastTheLimitThrowsBodyTooLarge() throws {
        var request = Resource<Data>(url: Self.url)
        request.maxBodySize = 16
        let limited = StreamingResource(request, serverSentEvents: { $0 })
        #expect(try limited.parse(Data("data: 0123456789\n\n".utf8)).count == 1)
        let error = try #require(throws: WebserviceError.self) {
            try limited.parse(Data("data: 01234567\ndata: 89abcdef\n\n".utf8))
        }
        #expect(try requireCase(\.bodyTooLarge, of: error) == 16)
    }

    @Test func anEventsFieldsAndTheLineStillArrivingCountTogetherAgainstTheLimit() async throws {
        // 11 bytes of data held, then a field line of 10: the framer would hold 21 bytes for an element of 16.
        var request = Resource<Data>(url: Self.url)
        request.maxBodySize = 16
        let limited = StreamingResource(request, serverSentEvents: { $0 })
        for size in [1, 5, 64] {
            let error = try await #require(throws: WebserviceError.self) {
                try await Self.elements(of: "data: 0123456789\ndata: 89ab\n\n", in: size, limited)
            }
            #expect(try requireCase(\.bodyTooLarge, of: error) == 16)
        }
    }

    // MARK: - JSON Lines

    @Test func jsonLinesSkipBlankLinesAndTakeALastLineWithoutItsEnd() async throws {
        try await Self.expectSameElements(
            "{\"n\":1}\r\n\n  \n{\"n\":2}\n{\"n\":3}",
            StreamingResource<Line>(Resource<Data>(url: Self.url), jsonLines: JSONDecoder()),
            [Line(n: 1), Line(n: 2), Line(n: 3)])
    }

    @Test func linesOfSpacesTabsAndCRsAreBlankAndOthersAreNot() async throws {
        try await Self.expectSameElements(
            "\t \r\n\r\n {\"n\":1}\t\n\r\r\n\t{\"n\":2}\n \t\r",
            StreamingResource<Line>(Resource<Data>(url: Self.url), jsonLines: JSONDecoder()),
            [Line(n: 1), Line(n: 2)])
    }

    @Test func aLineThatDoesNotDecodeSaysWhichOneItIs() throws {
        let lines = StreamingResource<Line>(Resource<Data>(url: Self.url), jsonLines: JSONDecoder())
        let failure = try #require(throws: DecodingError.self) {
            try lines.parse(Data("{\"n\":1}\n{\"n\":\"two\"}\n".utf8))
        }
        guard case .typeMismatch(_, let context) = failure else { throw UnexpectedCase() }
        #expect(context.codingPath.map(\.stringValue) == ["1", "n"])
    }

    @Test func aLinePastTheLimitThrowsBeforeItEnds() throws {
        var request = Resource<Data>(url: Self.url)
        request.maxBodySize = 8
        let lines = StreamingResource<Line>(request, jsonLines: JSONDecoder())
        #expect(throws: WebserviceError.self) { try lines.parse(Data("{\"n\":1}\n{\"n\":12345}".utf8)) }
        #expect(throws: WebserviceError.self) { try lines.parse(Data("{\"n\":12345}\n{\"n\":1}\n".utf8)) }
        let records = StreamingResource<Line>(request, jsonTextSequence: JSONDecoder())
        #expect(throws: WebserviceError.self) { try records.parse(Data("\u{1E}{\"n\":12345}\n\u{1E}{\"n\":1}\n".utf8)) }
    }

    @Test func aLineOfTheLimitEndedByCRLFIsWithinItWhereverTheChunksAreCut() async throws {
        var request = Resource<Data>(url: Self.url)
        request.maxBodySize = 8
        let lines = StreamingResource<Line>(request, jsonLines: JSONDecoder())
        // `{"n":12}` has 8 bytes: the CR of its CRLF, alone at the end of a chunk (of 1 or 3 bytes), is no part of it.
        try await Self.expectSameElements("{\"n\":12}\r\n{\"n\":3}\r\n", lines, [Line(n: 12), Line(n: 3)])
    }

    // MARK: - JSON text sequences (RFC 7464)

    @Test func recordsStartWithTheSeparatorAndEndWithALineFeed() async throws {
        try await Self.expectSameElements(
            "\u{1E}{\"n\":1}\n\u{1E}\u{1E}\n\u{1E}{\n \"n\": 2\n}\n",
            StreamingResource<Line>(Resource<Data>(url: Self.url), jsonTextSequence: JSONDecoder()),
            [Line(n: 1), Line(n: 2)])
    }

    @Test(arguments: ["\u{1E}{\"n\":1}\n\u{1E}123", "{\"n\":1}\n"])
    func aTruncatedRecordOrOneWithoutItsSeparatorIsAnError(_ body: String) throws {
        let records = StreamingResource<Line>(Resource<Data>(url: Self.url), jsonTextSequence: JSONDecoder())
        #expect(throws: (any Error).self) { try records.parse(Data(body.utf8)) }
    }

    // MARK: - Chunks

    @Test func chunksArriveAsTheTransportHandsThemOver() async throws {
        let chunks = try await Self.elements(
            of: "abcdefg", in: 3, StreamingResource(chunksOf: Resource<Data>(url: Self.url)))
        #expect(chunks.map { String(decoding: $0, as: UTF8.self) } == ["abc", "def", "g"])
    }
}

/// A transport that answers every request with `status` and a body in `chunks`, each handed over when asked for.
struct ChunkedTransport: WholeTransport {
    var chunks: [Data]
    var status = 200
    /// Counts the chunks taken, for checking that a stream reads no further than its loop asks.
    var taken: Counter?

    func answer(_ request: Request) async throws -> (Data, URLResponse) {
        (chunks.reduce(Data(), +), try httpResponse(status, url: request.url, headers: [:]))
    }

    func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        let head = Response(statusCode: status, headers: [:], body: Data(), url: request.url)
        let (source, taken) = (Source(chunks), taken)
        let sequence = AsyncThrowingStream<Data, any Error>(unfolding: {
            guard let chunk = await source.next() else { return nil }
            taken?.increment()
            return chunk
        })
        return (head, ResponseBody(sequence))
    }

    private actor Source {
        var rest: ArraySlice<Data>

        init(_ chunks: [Data]) {
            rest = chunks[...]
        }

        func next() -> Data? {
            rest.popFirst()
        }
    }
}
