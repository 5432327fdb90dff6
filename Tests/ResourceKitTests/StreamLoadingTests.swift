import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loading a stream through a web service: the head through the pipeline, then the elements as their bytes arrive.
struct StreamLoadingTests {
    private static let url = URL(string: "https://api.example.com/stream")!
    private static let lines = StreamingResource<Int>(Resource<Data>(url: url), jsonLines: JSONDecoder())

    /// A transport whose body the test writes while the loop reads it.
    private struct Live: WholeTransport {
        let chunks: AsyncThrowingStream<Data, any Error>

        func answer(_ request: Request) async throws -> (Data, URLResponse) { throw URLError(.unsupportedURL) }

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            let head = Response(statusCode: 200, headers: [:], body: Data(), url: request.url)
            // Only the stream's URL gets the live body; any other answers whole at once.
            return (head, request.url.path == "/stream" ? ResponseBody(chunks) : ResponseBody(Data("ok".utf8)))
        }
    }

    @Test func eachElementArrivesAsSoonAsItsBytesDo() async throws {
        let (chunks, writer) = AsyncThrowingStream.makeStream(of: Data.self)
        let elements = try await Webservice(transport: Live(chunks: chunks)).load(Self.lines)
        var iterator = elements.makeAsyncIterator()
        writer.yield(Data("1\n2".utf8))
        #expect(try await iterator.next() == 1)
        writer.yield(Data("\n".utf8))
        #expect(try await iterator.next() == 2)
        writer.finish()
        #expect(try await iterator.next() == nil)
    }

    @Test func theBodyIsReadNoFurtherThanTheLoopAsks() async throws {
        let taken = Counter()
        let chunks = (1...100).map { Data("\($0)\n".utf8) }
        let webservice = Webservice(transport: ChunkedTransport(chunks: chunks, taken: taken))
        for try await element in try await webservice.load(Self.lines) where element == 3 { break }
        #expect(taken.count == 3)
    }

    @Test func anUnacceptableStatusThrowsWithTheBodyAndTheAPIError() async throws {
        struct APIError: Error, Decodable { var reason: String }
        let request = Resource<Data>(url: Self.url).decodingAPIErrors(as: APIError.self)
        let stream = StreamingResource<Int>(request, jsonLines: JSONDecoder())
        let transport = ChunkedTransport(chunks: [Data(#"{"reason":"#.utf8), Data(#""busy"}"#.utf8)], status: 503)
        let error = try await #require(throws: WebserviceError.self) {
            _ = try await Webservice(transport: transport).load(stream)
        }
        let (apiError, response) = try requireCase(\.apiError, of: error)
        #expect((apiError as? APIError)?.reason == "busy")
        #expect(response.statusCode == 503)
        #expect(response.body.data == Data(#"{"reason":"busy"}"#.utf8))
        #expect(error.url == Self.url)
    }

    @Test func aBadElementEndsTheLoopSayingWhichOneItIs() async throws {
        let transport = ChunkedTransport(chunks: [Data("1\n2\nthree\n4\n".utf8)])
        var seen: [Int] = []
        let error = try await #require(throws: WebserviceError.self) {
            for try await element in try await Webservice(transport: transport).load(Self.lines) {
                seen.append(element)
            }
        }
        #expect(seen == [1, 2])
        let (failure, response) = try requireCase(\.parsing, of: error)
        let element = try requireCase(\.dataCorrupted, of: failure as? DecodingError)
        #expect(element.codingPath.map(\.intValue) == [2])
        #expect(response.statusCode == 200)
    }

    @Test func aSecondLoopOverTheSameElementsThrows() async throws {
        let elements = try await Webservice(transport: ChunkedTransport(chunks: [Data("1\n".utf8)])).load(Self.lines)
        for try await _ in elements {}
        await #expect(throws: WebserviceError.self) {
            for try await _ in elements {}
        }
    }

    @Test func cancellingTheLoopEndsItPromptly() async throws {
        let (chunks, writer) = AsyncThrowingStream.makeStream(of: Data.self)
        let elements = try await Webservice(transport: Live(chunks: chunks)).load(Self.lines)
        writer.yield(Data("1\n".utf8))
        let loop = Task {
            var count = 0
            for try await _ in elements { count += 1 }
            return count
        }
        try await Task.sleep(nanoseconds: 20_000_000)
        loop.cancel()
        await #expect(throws: CancellationError.self) { try await loop.value }
        writer.finish()
    }

    @Test func aSecondIterationFailsSayingSo() async throws {
        let transport = StubTransport.answering(.status(200, body: Data("1\n".utf8)))
        let elements = try await Webservice(transport: transport).load(Self.lines)
        var first: [Int] = []
        for try await element in elements { first.append(element) }
        #expect(first == [1])
        let error = try await #require(throws: WebserviceError.self) {
            for try await _ in elements {}
        }
        #expect(error.reason.isAlreadyIterated, "\(error)")
    }

    /// A transport that answers every request with the lines `1` and `2`, as chunks still arriving, and counts them.
    private struct ArrivingLines: Transport {
        let requests = Counter()

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            requests.increment()
            let (chunks, writer) = AsyncThrowingStream.makeStream(of: Data.self)
            writer.yield(Data("1\n".utf8))
            writer.yield(Data("2\n".utf8))
            writer.finish()
            return (
                Response(statusCode: 200, headers: ["Cache-Control": "max-age=60"], url: request.url),
                ResponseBody(chunks)
            )
        }
    }

    /// A stream's body still arriving is its loop's, read once: neither stored nor shared.
    ///
    /// One that arrived whole (a stub's) is a whole response like any other, which the cache keeps as the server
    /// allows.
    @Test func neitherTheCacheNorDeduplicationSharesABodyStillArriving() async throws {
        let arriving = ArrivingLines()
        let webservice = Webservice(
            transport: arriving, cache: ResponseCache(byteLimit: 1 << 20), middleware: [Deduplication()])
        for _ in 0..<2 {
            var elements: [Int] = []
            for try await element in try await webservice.load(Self.lines) { elements.append(element) }
            #expect(elements == [1, 2])
        }
        #expect(arriving.requests.count == 2)

        let whole = StubTransport.answering(
            .status(200, headers: ["Cache-Control": "max-age=60"], body: Data("1\n2\n".utf8)))
        let cached = Webservice(transport: whole, cache: ResponseCache(byteLimit: 1 << 20))
        for _ in 0..<2 {
            var elements: [Int] = []
            for try await element in try await cached.load(Self.lines) { elements.append(element) }
            #expect(elements == [1, 2])
        }
        #expect(await whole.requests.count == 1)
    }

    @Test func theMiddlewareRetriesBeforeTheFirstElement() async throws {
        let attempts = Counter()
        let transport = StubTransport.answering(
            .computed { _ in
                attempts.increment()
                return attempts.count == 1 ? .status(503, body: Data()) : .status(200, body: Data("7\n".utf8))
            })
        let webservice = Webservice(transport: transport, middleware: [RetryPolicy(baseDelay: 0.001)])
        var elements: [Int] = []
        for try await element in try await webservice.load(Self.lines) { elements.append(element) }
        #expect(elements == [7])
        #expect(attempts.count == 2)
    }

    @Test func aRecordedStreamReplaysWithoutTheServer() async throws {
        try await withTemporaryDirectory { directory in
            let events = StreamingResource(Resource<Data>(url: Self.url), serverSentEvents: { $0 })
            let server = StubTransport.answering(
                .status(
                    200, headers: ["Content-Type": "text/event-stream"],
                    body: Data("id: 1\ndata: a\n\ndata: b\n\n".utf8)))
            var live: [ServerSentEvent] = []
            let recording = Webservice(transport: RecordingTransport(server, to: directory))
            for try await event in try await recording.load(events) { live.append(event) }
            var replayed: [ServerSentEvent] = []
            let replay = Webservice(transport: try ReplayTransport(from: directory))
            for try await event in try await replay.load(events) { replayed.append(event) }
            #expect(live == [ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b", id: "1")])
            #expect(replayed == live)
        }
    }

    @Test func aStreamDroppedUnreadGivesItsPlaceBack() async throws {
        let (chunks, writer) = AsyncThrowingStream.makeStream(of: Data.self)
        let webservice = Webservice(transport: Live(chunks: chunks), maxConcurrentLoads: 1)
        let limiter = try #require(webservice.limiter)
        do {
            let stream = try await webservice.load(Self.lines)
            #expect(limiter.loadsInFlight == 1)
            _ = stream
        }
        #expect(limiter.loadsInFlight == 0)
        writer.finish()
        #expect(
            try await webservice.load(Resource<Data>(url: URL(string: "https://api.example.com/other")!))
                == Data("ok".utf8))
    }

    @Test func aStreamHoldsItsPlaceUnderTheLimitUntilItsBodyEnds() async throws {
        let (chunks, writer) = AsyncThrowingStream.makeStream(of: Data.self)
        let webservice = Webservice(transport: Live(chunks: chunks), maxConcurrentLoads: 1)
        var elements = try await webservice.load(Self.lines).makeAsyncIterator()
        let done = Counter()
        let other = Task {
            let data = try await webservice.load(Resource<Data>(url: URL(string: "https://api.example.com/other")!))
            done.increment()
            return data
        }
        writer.yield(Data("1\n".utf8))
        #expect(try await elements.next() == 1)
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(done.count == 0)
        writer.finish()
        #expect(try await elements.next() == nil)
        #expect(try await other.value == Data("ok".utf8))
    }
}
