import Foundation
import ResourceKit
import ResourceKitTesting  // not `@testable`: the contract as a user's transport sees it
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a transport of a user's own can count on, through the public API alone.
@Suite struct TransportContractTests {
    private static let url = URL(string: "https://api.example.com/items")!

    /// A transport whose body the test writes while the web service reads it.
    private struct Live: Transport {
        let chunks: AsyncThrowingStream<Data, any Error>

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            (Response(statusCode: 200, url: request.url), ResponseBody(chunks))
        }
    }

    /// A transport that wraps another, counting the bytes of each body as they pass, without holding them.
    private struct Counting: Transport {
        let inner: any Transport
        let counted: Counter

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            let (head, body) = try await inner.send(request, context: context)
            let counted = counted
            return (
                head,
                ResponseBody(
                    body.chunks.map { @Sendable chunk in
                        counted.add(chunk.count)
                        return chunk
                    })
            )
        }
    }

    final class Counter: Sendable {
        private let bytes = Mutex(0)
        var value: Int { bytes.withLock { $0 } }

        func add(_ count: Int) {
            bytes.withLock { $0 += count }
        }
    }

    @Test func aWrappingTransportKeepsAStreamStreaming() async throws {
        let (chunks, writer) = AsyncThrowingStream.makeStream(of: Data.self)
        let counted = Counter()
        let webservice = Webservice(transport: Counting(inner: Live(chunks: chunks), counted: counted))
        let lines = StreamingResource<Int>(Resource<Data>(url: Self.url), jsonLines: JSONDecoder())
        var elements = try await webservice.load(lines).makeAsyncIterator()
        writer.yield(Data("1\n".utf8))
        // The first element arrives while the inner body is still open: the wrapper didn't collect it.
        #expect(try await elements.next() == 1)
        #expect(counted.value == 2)
        writer.yield(Data("2\n".utf8))
        writer.finish()
        #expect(try await elements.next() == 2)
        #expect(try await elements.next() == nil)
        #expect(counted.value == 4)
    }

    /// A server of its own that receives what it is sent: the request, and the bytes of its body file as read.
    private struct Receiving: Transport {
        let sink: Sink

        final class Sink: Sendable {
            let bodies = Mutex<[Data]>([])
            let lengths = Mutex<[Int64?]>([])
        }

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            var body = request.bodyBytes ?? Data()
            if let file = request.body?.file {
                sink.lengths.withLock { $0.append(try? request.body?.length()) }
                let handle = try FileHandle(forReadingFrom: file)
                defer { try? handle.close() }
                while let chunk = try handle.read(upToCount: 4096), !chunk.isEmpty { body.append(chunk) }
            }
            sink.bodies.withLock { $0.append(body) }
            return (Response(statusCode: 204, url: request.url), ResponseBody(Data()))
        }
    }

    @Test func aFileUploadReachesAStreamingTransportWithItsExactBytes() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let contents = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try contents.write(to: file)
        let sink = Receiving.Sink()

        try await Webservice(transport: Receiving(sink: sink)).load(
            Resource<Void>(url: Self.url, method: .post(.file(file))))

        #expect(sink.bodies.withLock { $0 } == [contents])
        #expect(sink.lengths.withLock { $0 } == [Int64(contents.count)])
    }

    /// A transport that adds a header field of its own, `X-Client` or a credential, answers with the value it sent
    /// and a counter, and says what it sent (`Response.request`).
    private struct Echoing: Transport {
        var field: HeaderField
        let count = Counter()

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            var sent = request
            if sent.value(forHTTPHeaderField: field.name) == nil { sent.headerFields.append(field) }
            let value = sent.value(forHTTPHeaderField: field.name) ?? "none"
            count.add(1)
            let number = count.value
            var response = Response(
                statusCode: 200, headers: ["Cache-Control": "max-age=60"], url: request.url)
            response.request = sent
            return (response, ResponseBody(Data("\(value) \(number)".utf8)))
        }
    }

    @Test func theWebServiceSendsTheTransportsOwnHeaderFields() async throws {
        let transport = Echoing(field: HeaderField(name: "X-Client", value: "echo/1"))
        let resource = Resource<String>(url: Self.url, textEncoding: .utf8)
        #expect(try await Webservice(transport: transport).load(resource) == "echo/1 1")
    }

    /// A response to a request its transport added a credential to is kept for that web service alone.
    ///
    /// The cache's key can't tell it from the same request with another credential. A field that carries none keys
    /// nothing.
    @Test func aResponseToCredentialsTheTransportAddedAnswersOnlyItsOwnWebService() async throws {
        let cache = ResponseCache(byteLimit: 100_000)
        let resource = Resource<String>(url: Self.url, textEncoding: .utf8)
        let alice = Webservice(
            transport: Echoing(field: HeaderField(name: "Authorization", value: "alice")), cache: cache)
        let bob = Webservice(transport: Echoing(field: HeaderField(name: "Authorization", value: "bob")), cache: cache)
        #expect(try await alice.load(resource) == "alice 1")
        #expect(try await bob.load(resource) == "bob 1")
        #expect(try await alice.load(resource) == "alice 1")
        #expect(try await bob.load(resource) == "bob 1")
        #expect(await cache.count == 2)
        // Not on disk: a response kept for one web service is kept in memory only.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = Webservice(
            transport: Echoing(field: HeaderField(name: "Authorization", value: "carol")),
            cache: try ResponseCache(directory: directory, byteLimit: 100_000))
        #expect(try await disk.load(resource) == "carol 1")
        #expect(try await disk.load(resource) == "carol 2")
        // A field that carries no credential: one web service's response answers another's.
        let agent = HeaderField(name: "User-Agent", value: "echo/1")
        let shared = ResponseCache(byteLimit: 100_000)
        #expect(try await Webservice(transport: Echoing(field: agent), cache: shared).load(resource) == "echo/1 1")
        #expect(try await Webservice(transport: Echoing(field: agent), cache: shared).load(resource) == "echo/1 1")
    }

    @Test func collectStopsAtItsLimitWithATypedError() async throws {
        let (chunks, writer) = AsyncThrowingStream.makeStream(of: Data.self)
        writer.yield(Data(count: 6))
        writer.yield(Data(count: 6))
        writer.finish()
        let error = try await #require(throws: WebserviceError.self) {
            try await ResponseBody(chunks).collect(upTo: 10)
        }
        guard case .bodyTooLarge(let limit) = error.reason else {
            Issue.record("\(error)")
            return
        }
        #expect(limit == 10)
        #expect(try await ResponseBody(Data(count: 10)).collect(upTo: 10).count == 10)
    }

    /// A transport that adds a credential of its own to every request, as a session with cookies does: it refuses a
    /// request that may carry none.
    private struct Cookied: Transport {
        let inner: StubTransport

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            guard context.sendsCredentials else { throw WebserviceError(.credentialsRefused) }
            return try await inner.send(request, context: context)
        }
    }

    @Test func aTransportThatAddsItsOwnCredentialsSendsNoPageToAnotherOrigin() async throws {
        let stub = StubTransport.answering(
            .status(200, headers: ["Link": #"<https://other.example/items?page=2>; rel="next""#], body: Data("1".utf8)))
        let first = Resource<String>(url: Self.url, textEncoding: .utf8)
        var pages = Webservice(transport: Cookied(inner: stub)).pages(of: first).makeAsyncIterator()

        #expect(try await pages.next() == "1")
        let error = try await #require(throws: WebserviceError.self) { try await pages.next() }
        guard case .credentialsRefused = error.reason else {
            Issue.record("\(error)")
            return
        }
        #expect(error.url?.host == "other.example", "the error names the refused request")
        #expect(await stub.requests.count == 1)
    }
}
