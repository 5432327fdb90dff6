import Foundation
import ResourceKit
import ResourceKitTesting
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The chain every request passes through: its order, and where it sits among the cache, the limit and the timeout.
@Suite struct MiddlewareTests {
    /// A middleware that notes when a request passes it on the way in and on the way out, and tags the request.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct Tracer: Middleware {
        var name: String
        var trail: Trail

        func intercept(
            _ request: URLRequest,
            next: @escaping @Sendable (URLRequest) async throws -> (Data, ResponseHead)
        ) async throws -> (Data, ResponseHead) {
            trail.note("\(name) in")
            var request = request
            request.addValue(name, forHTTPHeaderField: "X-Trail")
            defer { trail.note("\(name) out") }
            return try await next(request)
        }
    }

    /// What the tracers saw, in order.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    final class Trail: Sendable {
        private let marks = Mutex<[String]>([])
        func note(_ mark: String) { marks.withLock { $0.append(mark) } }
        var all: [String] { marks.withLock { $0 } }
    }

    /// A middleware that answers itself, as a stub or a cache of your own would.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct Answering: Middleware {
        func intercept(
            _ request: URLRequest,
            next: @escaping @Sendable (URLRequest) async throws -> (Data, ResponseHead)
        ) async throws -> (Data, ResponseHead) {
            (Data("from the middleware".utf8), ResponseHead(try httpResponse(200, url: request.url ?? baseURL)))
        }
    }

    /// A middleware that hands on what `next` threw, for the test to inspect.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct Catching: Middleware {
        var caught: Trail

        func intercept(
            _ request: URLRequest,
            next: @escaping @Sendable (URLRequest) async throws -> (Data, ResponseHead)
        ) async throws -> (Data, ResponseHead) {
            do {
                return try await next(request)
            } catch {
                var dumped = ""
                dump(error, to: &dumped)
                caught.note("\(type(of: error)) \(dumped)")
                throw error
            }
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theFirstMiddlewareIsOutermostAndEachChangesTheRequest() async throws {
        let (trail, transport) = (Trail(), StubTransport.answering(.status(200, body: Data("ok".utf8))))
        let webservice = Webservice(
            transport: transport, middleware: [Tracer(name: "a", trail: trail), Tracer(name: "b", trail: trail)])
        #expect(try await webservice.load(thing()) == "ok")
        #expect(trail.all == ["a in", "b in", "b out", "a out"])
        #expect(await transport.requests.map { $0.value(forHTTPHeaderField: "X-Trail") } == ["a,b"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aMiddlewareMayAnswerWithoutTheTransportAndTheResourceStillParses() async throws {
        let transport = StubTransport.answering(.status(500))
        let webservice = Webservice(transport: transport, middleware: [Answering()])
        #expect(try await webservice.load(thing()) == "from the middleware")
        #expect(await transport.requests.isEmpty)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func middlewareSeesTransportErrorsAsLoadThrowsThemWithoutCredentials() async throws {
        let caught = Trail()
        let transport = StubTransport.answering(.failure(.networkConnectionLost))
        let webservice = Webservice(transport: transport, middleware: [Catching(caught: caught)])
        var resource = thing()
        resource.queryItems = [URLQueryItem(name: "access_token", value: "s3cr3t-token")]
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(resource) }
        #expect((try requireCase(\.transport, of: error) as? URLError)?.code == .networkConnectionLost)
        let seen = try #require(caught.all.first)
        #expect(seen.hasPrefix("WebserviceError "))
        #expect(seen.contains("api.example.com/thing?access_token=REDACTED"))
        #expect(!seen.contains("s3cr3t-token"))
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aFreshCachedResponseAnswersBeforeTheChain() async throws {
        let trail = Trail()
        let transport = StubTransport.answering(
            .status(200, headers: ["Cache-Control": "max-age=60"], body: Data("ok".utf8)))
        let webservice = Webservice(
            transport: transport, cache: ResponseCache(byteLimit: 10_000),
            middleware: [Tracer(name: "a", trail: trail)])
        _ = try await webservice.load(thing())
        _ = try await webservice.load(thing())
        #expect(trail.all == ["a in", "a out"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theLoadLimitHoldsAPlaceForTheWholeChain() async throws {
        let gate = Gate()
        let trail = Trail()
        let webservice = Webservice(
            transport: StubTransport.gated(by: gate), maxConcurrentLoads: 1,
            middleware: [Tracer(name: "a", trail: trail)])
        let first = Task { try await webservice.load(Gate.resource("1")) }
        try await eventually("the first load reached the transport") { await gate.started == ["1"] }
        let second = Task { try await webservice.load(Gate.resource("2")) }
        try await Task.sleep(for: .milliseconds(20))
        #expect(trail.all == ["a in"])
        await gate.open("1")
        await gate.open("2")
        #expect(try await first.value == "1")
        #expect(try await second.value == "2")
        #expect(await gate.maxInFlight == 1)
    }
}
