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

/// What an observer hears about a load, and that none of it shows a credential.
@Suite struct WebserviceEventTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func eachAttemptReportsSendingAndItsResponse() async throws {
        let events = EventLog()
        let transport = StubTransport.answering(.sequence([.json(#"{"ok":true}"#, status: 503), .json("done")]))
        var retry = RetryPolicy()
        retry.baseDelay = 0
        let webservice = Webservice(transport: transport, middleware: [retry], observer: events.observer)
        _ = try await webservice.load(thing())
        let kinds = events.events.map { event -> String in
            switch event.kind {
            case .sent: "sent"
            case .received(let statusCode, let bytes, _): "received \(statusCode) \(bytes)"
            case .retryScheduled(let attempt, _): "retry after \(attempt)"
            default: "other"
            }
        }
        #expect(kinds == ["sent", "received 503 11", "retry after 1", "sent", "received 200 4"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aFailureAndACacheHitAreReported() async throws {
        let events = EventLog()
        let failing = Webservice(transport: StubTransport.answering(.failure(.timedOut)), observer: events.observer)
        await #expect(throws: WebserviceError.self) { try await failing.load(thing()) }
        let fresh = StubTransport.answering(
            .status(200, headers: ["Cache-Control": "max-age=60"], body: Data("ok".utf8)))
        let cached = Webservice(transport: fresh, cache: ResponseCache(byteLimit: 10_000), observer: events.observer)
        _ = try await cached.load(thing())
        _ = try await cached.load(thing())
        let descriptions = events.descriptions
        #expect(descriptions.count == 5)
        #expect(descriptions[1].hasPrefix("GET https://api.example.com/thing: failed after "))
        #expect(descriptions[1].contains("URLError -1001 (timed out)"))
        #expect(descriptions[4] == "GET https://api.example.com/thing: answered from the cache (http)")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func noEventShowsACredentialInItsDescriptionDumpOrCURL() async throws {
        let events = EventLog()
        var resource = thing(.post(Data(#"{"password":"hunter2-hunter2"}"#.utf8)))
        resource.headers["Authorization"] = "Bearer s3cr3t-token"
        resource.queryItems = [URLQueryItem(name: "api_key", value: "k3y-value")]
        let webservice = Webservice(transport: StubTransport.answering(.failure(.timedOut)), observer: events.observer)
        await #expect(throws: WebserviceError.self) { try await webservice.load(resource) }
        #expect(events.events.count == 2)
        for event in events.events {
            var dumped = ""
            dump(event, to: &dumped)
            for text in [event.description, dumped, event.cURLDescription, String(reflecting: event)] {
                for secret in ["s3cr3t-token", "k3y-value", "hunter2-hunter2"] {
                    #expect(!text.contains(secret), "\(secret) in \(text)")
                }
            }
        }
        #expect(events.events[0].cURLDescription.contains("-X 'POST'"))
    }

    /// A URL whose query was redacted reads as any other: the method, the URL, a colon and what happened.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [("q", "x", "q=x"), ("key", "k3y-value", "key=REDACTED")])
    func anEventLineKeepsItsColonWhateverItsQuery(name: String, value: String, shown: String) async throws {
        let events = EventLog()
        var resource = thing()
        resource.queryItems = [URLQueryItem(name: name, value: value)]
        _ = try await Webservice(transport: StubTransport.answering(.status(200)), observer: events.observer)
            .load(resource)
        #expect(events.descriptions.first == "GET https://api.example.com/thing?\(shown): sent")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aLoadInsideAMiddlewareReportsToItsOwnWebServiceOnly() async throws {
        struct Nested: Middleware {
            var inner: Webservice
            func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
                _ = try await inner.load(thing(at: "token"))
                return try await next(request, context)
            }
        }
        let events = EventLog()
        let inner = Webservice(transport: StubTransport.answering(.status(200)))
        let outer = Webservice(
            transport: StubTransport.answering(.status(200)), middleware: [Nested(inner: inner)],
            observer: events.observer)
        _ = try await outer.load(thing())
        #expect(events.events.map { $0.url?.lastPathComponent } == ["thing", "thing"])
    }
}
