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

        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            trail.note("\(name) in")
            var request = request
            request.addValue(name, forHTTPHeaderField: "X-Trail")
            defer { trail.note("\(name) out") }
            return try await next(request, context)
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
        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            Response(statusCode: 200, body: Data("from the middleware".utf8), url: request.url)
        }
    }

    /// A middleware that hands on what `next` threw, for the test to inspect.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct Catching: Middleware {
        var caught: Trail

        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            do {
                return try await next(request, context)
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
        #expect(await transport.requests.map { $0.value(forHTTPHeaderField: "X-Trail") } == ["a, b"])
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
    @Test func aFreshCachedResponseAnswersAfterTheMiddlewareInsteadOfTheTransport() async throws {
        let trail = Trail()
        let transport = StubTransport.answering(
            .status(200, headers: ["Cache-Control": "max-age=60"], body: Data("ok".utf8)))
        let webservice = Webservice(
            transport: transport, cache: ResponseCache(byteLimit: 10_000),
            middleware: [Tracer(name: "a", trail: trail)])
        _ = try await webservice.load(thing())
        _ = try await webservice.load(thing())
        #expect(trail.all == ["a in", "a out", "a in", "a out"])
        #expect(await transport.requests.count == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theLoadLimitHoldsAPlaceOnlyForTheExchangeAfterTheMiddleware() async throws {
        let gate = Gate()
        let trail = Trail()
        let webservice = Webservice(
            transport: StubTransport.gated(by: gate), maxConcurrentLoads: 1,
            middleware: [Tracer(name: "a", trail: trail)])
        let first = Task { try await webservice.load(Gate.resource("1")) }
        try await eventually("the first load reached the transport") { await gate.started == ["1"] }
        let second = Task { try await webservice.load(Gate.resource("2")) }
        try await eventually("the second load passed the middleware and waits for the place") {
            trail.all == ["a in", "a in"]
        }
        try await Task.sleep(for: .milliseconds(20))
        #expect(await gate.started == ["1"])
        await gate.open("1")
        await gate.open("2")
        #expect(try await first.value == "1")
        #expect(try await second.value == "2")
        #expect(await gate.maxInFlight == 1)
    }

    /// A middleware that sends every request with a fixed `Authorization`, as one user's credential.
    struct SignedIn: Middleware {
        var user: String
        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            var request = request
            request.setValue("Bearer \(user)", forHTTPHeaderField: "Authorization")
            return try await next(request, context)
        }
    }

    @Test func aCredentialAMiddlewareAddsIsPartOfTheCacheKey() async throws {
        let transport = StubTransport.answering(
            .computed { request in
                .status(
                    200, headers: ["Cache-Control": "max-age=60"],
                    body: Data((request.value(forHTTPHeaderField: "Authorization") ?? "-").utf8))
            })
        let cache = ResponseCache(byteLimit: 10_000)
        let alice = Webservice(transport: transport, cache: cache, middleware: [SignedIn(user: "alice")])
        let bob = Webservice(transport: transport, cache: cache, middleware: [SignedIn(user: "bob")])
        #expect(try await alice.load(thing()) == "Bearer alice")
        #expect(try await bob.load(thing()) == "Bearer bob", "never alice's stored response")
        #expect(try await alice.load(thing()) == "Bearer alice")
        #expect(await transport.requests.count == 2)
    }

    /// What a middleware saw of each load's context.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct ContextSpy: Middleware {
        var trail: Trail
        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            let time = context.timeRemaining.map { $0 > 0 && $0 <= 600 ? "time left" : "wrong time \($0)" } ?? "no time"
            trail.note("\(context.name ?? "-") \(context.maxBodySize ?? -1) \(context.attempt) \(time)")
            return try await next(request, context)
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theContextCarriesTheResourcesNameLimitTimeAndAttempt() async throws {
        let trail = Trail()
        let transport = StubTransport.answering(.sequence([.status(503), .status(200, body: Data("ok".utf8))]))
        let webservice = Webservice(
            transport: transport,
            middleware: [ContextSpy(trail: trail), RetryPolicy(baseDelay: 0), ContextSpy(trail: trail)])
        var resource = thing()
        resource.name = "thing"
        resource.maxBodySize = 100
        // Long enough that a loaded machine never reaches it.
        resource.timeout = 600
        #expect(try await webservice.load(resource) == "ok")
        #expect(
            trail.all == ["thing 100 1 time left", "thing 100 1 time left", "thing 100 2 time left"],
            "the retry counts the attempt for the layers after it")
        _ = try await webservice.load(thing())
        #expect(trail.all.suffix(2) == ["- -1 1 no time", "- -1 1 no time"])
    }

    @Test func anErrorOfAMiddlewaresOwnReachesTheCallerAsATransportFailure() async throws {
        struct Refused: Error {}
        struct Refusing: Middleware {
            func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
                throw Refused()
            }
        }
        let webservice = Webservice(transport: StubTransport.answering(.status(200)), middleware: [Refusing()])
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(thing()) }
        #expect(try requireCase(\.transport, of: error) is Refused)
    }
}
