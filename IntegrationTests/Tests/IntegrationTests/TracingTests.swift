import EpisodesService
import Foundation
import OTelSemanticConventions
import ResourceKit
import Testing
import Tracing
import W3CTracing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `DistributedTracing`: a client span for each request sent, in the caller's trace, its `traceparent` received by the
/// server, with OpenTelemetry's attributes and no credential.
@Suite(.timeLimit(.minutes(1))) struct TracingTests {
    @Test(arguments: TransportKind.allCases)
    func eachAttemptIsASpanAndA503IsAnError(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let tracer = W3CTracer()
            let webservice = kind.webservice(middleware: [
                RetryPolicy(baseDelay: 0.01), DistributedTracing(tracer: tracer),
            ])
            let loaded = try await webservice.load(
                Resource<ProductionLayerTests.Attempt>(get: base / "production/unavailable/a?failures=1"))
            #expect(loaded.attempt == 2)
            let all = tracer.finishedSpans
            try #require(all.count == 3, "two requests and their load: \(all)")
            let (spans, load) = (Array(all.prefix(2)), all[2])
            #expect(spans.map(\.operationName) == ["GET", "GET"])
            #expect(spans.map(\.kind) == [.client, .client])
            #expect(spans.map { $0.attribute("http.response.status_code") } == ["503", "200"])
            #expect(spans.map { $0.attribute("error.type") } == ["503", nil])
            #expect(spans.map { $0.status?.code } == [.error, nil])
            #expect(spans.map { $0.attribute("http.request.resend_count") } == [nil, "1"])
            // Without a caller's span, the load's span is the root of one trace, the parent of both requests' spans.
            #expect(load.kind == .internal)
            #expect(load.operationName == "GET")
            #expect(load.ids.parentSpanID == nil)
            #expect(load.status?.code == nil)
            #expect(spans.allSatisfy { $0.ids.traceID == load.ids.traceID && $0.ids.parentSpanID == load.ids.spanID })
            // Every attribute is one of OpenTelemetry's HTTP client conventions, by the generated registry's names.
            let conventions: Set<String> = [
                OTelAttribute.http.request.method, OTelAttribute.http.request.methodOriginal,
                OTelAttribute.http.request.resendCount, OTelAttribute.http.response.statusCode, OTelAttribute.url.full,
                OTelAttribute.server.address, OTelAttribute.server.port, OTelAttribute.error.type,
            ]
            for span in all {
                var names: Set<String> = []
                span.attributes.forEach { name, _ in names.insert(name) }
                #expect(names.isSubset(of: conventions), "\(span.operationName): \(names)")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func spanIsTheCallersChildAndTheServerReceivesItsTraceparent(kind: TransportKind) async throws {
        try await withServer { base in
            let tracer = W3CTracer()
            let webservice = kind.webservice(middleware: [DistributedTracing(tracer: tracer)])
            // A stale traceparent of the caller's own, which the span's replaces.
            let stale = "00-0123456789abcdef0123456789abcdef-0123456789abcdef-01"
            let headers = Resource<[String: String]>(get: base / "faults/headers", headers: ["traceparent": stale])
            let received = try await tracer.withSpan("caller") { _ in try await webservice.load(headers) }
            let spans = tracer.finishedSpans
            let caller = try #require(spans.first { $0.operationName == "caller" })
            let span = try #require(spans.first { $0.operationName == "GET" })
            #expect(spans.count == 2)
            #expect(span.ids.traceID == caller.ids.traceID)
            #expect(span.ids.parentSpanID == caller.ids.spanID)
            #expect(received["traceparent"] == span.ids.traceparent)
            #expect(span.kind == .client)
            #expect(span.attribute("http.request.method") == "GET")
            #expect(span.attribute("url.full") == (base / "faults/headers").absoluteString)
            #expect(span.attribute("server.address") == base.host)
            #expect(span.attribute("server.port") == base.port.map { String($0) })
            #expect(span.attribute("http.response.status_code") == "200")
            #expect(span.attribute("error.type") == nil)
            #expect(span.status == nil)
        }
    }

    @Test(arguments: TransportKind.allCases, [404, 500])
    func errorStatusMarksTheSpanFailed(kind: TransportKind, statusCode: Int) async throws {
        try await withServer { base in
            let tracer = W3CTracer()
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice(middleware: [DistributedTracing(tracer: tracer)]).load(
                    bytes(base / "faults/status/\(statusCode)"))
            }
            #expect(error.statusCode == statusCode)
            let span = try #require(tracer.finishedSpans.first)
            #expect(span.status?.code == .error)
            #expect(span.attribute("http.response.status_code") == String(statusCode))
            #expect(span.attribute("error.type") == String(statusCode))
            let load = try #require(tracer.finishedSpans.last)
            #expect(load.kind == .internal && load.status?.code == .error)
            #expect(load.attribute("error.type") == String(statusCode))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func transportErrorIsRecordedWithoutCredentials(kind: TransportKind) async throws {
        // Start a server, note its port, stop it: nothing listens there any more.
        let server = try await EpisodesServer.start()
        let port = try #require(server.baseURL.port)
        await server.stop()
        let url = try #require(URL(string: "http://alice:hunter2secret@127.0.0.1:\(port)/episodes?token=t0kenvalue"))
        let tracer = W3CTracer()
        var resource = bytes(url)
        resource.headers = ["Authorization": "Bearer b3arer-secret"]
        let error = try await #require(throws: WebserviceError.self) {
            try await kind.webservice(middleware: [DistributedTracing(tracer: tracer)]).load(resource)
        }
        #expect(error.urlError?.code == .cannotConnectToHost)
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.status?.code == .error)
        #expect(span.attribute("error.type") == "URLError")
        #expect(span.attribute("http.response.status_code") == nil)
        #expect(span.attribute("url.full")?.contains(bytesOf: "REDACTED") == true)
        let recorded = try #require(span.errors.first)
        var dumped = ""
        dump(recorded, to: &dumped)
        let texts = ["\(recorded)", String(reflecting: recorded), dumped, "\(span)"]
        for secret in ["hunter2secret", "t0kenvalue", "b3arer-secret"] {
            #expect(!texts.contains { $0.contains(bytesOf: secret) }, "\(secret) in \(texts)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingTheLoadEndsItsSpan(kind: TransportKind) async throws {
        try await withServer { base in
            let tracer = W3CTracer()
            let sent = Shared(false)
            let webservice = kind.webservice(
                middleware: [DistributedTracing(tracer: tracer)],
                observer: { event in if case .sent = event.kind { sent.update { $0 = true } } })
            let task = Task { try await webservice.load(bytes(base / "faults/stall?ms=30000")) }
            try await waitUntil { sent.value }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            let span = try #require(tracer.finishedSpans.first)
            #expect(span.attribute("error.type") == "CancellationError")
            #expect(span.status?.code == .error)
            #expect(span.errors.isEmpty)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func resourceTimeoutEndsTheSpanAsATimeout(kind: TransportKind) async throws {
        try await withServer { base in
            let tracer = W3CTracer()
            var stalled = bytes(base / "faults/stall?ms=30000")
            stalled.timeout = 0.3
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice(middleware: [DistributedTracing(tracer: tracer)]).load(stalled)
            }
            #expect(error.timedOut, "\(error)")
            // The load doesn't wait for the cancelled request to return: its span ends when it has.
            try await waitUntil { !tracer.finishedSpans.isEmpty }
            let span = try #require(tracer.finishedSpans.first)
            #expect(span.attribute("error.type") == "timeout")
            #expect(span.status?.code == .error)
        }
    }

    /// A span is named from the load's deadline, whichever error ended its request.
    ///
    /// A request cut off by the deadline may end with `CancellationError`, or first with the transport's own `URLError`
    /// (a `URLSession` task's timeout, or its cancellation). The layers are called directly, with a deadline that
    /// passed, as no load can order that race.
    @Test(
        arguments: [
            CancellationError(), WebserviceError(.transport(URLError(.cancelled))),
            WebserviceError(.transport(URLError(.timedOut))),
        ] as [any Error])
    func requestPastTheLoadsDeadlineEndsItsSpanAsATimeoutWhicheverErrorEndedIt(error: any Error) async throws {
        let tracer = W3CTracer()
        var context = LoadContext()
        context.deadline = LoadContext.Deadline(uptime: Uptime.now(), timeout: 1)
        let request = Request(url: URL(string: "https://api.example.com/stalled")!)
        await #expect(throws: (any Error).self) {
            try await DistributedTracing(tracer: tracer).intercept(request, context: context) { request, context in
                // The receiver the middleware installed: the request's span.
                let receiver = try #require(context.receiver)
                return try await receiver.intercept(request, context: context) { _, _ in throw error }
            }
        }
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.attribute("error.type") == "timeout")
        #expect(span.status?.code == .error)
        #expect(span.errors.isEmpty, "a timeout is no error of the request's")
    }

    @Test(arguments: TransportKind.allCases)
    func answerFromTheCacheSendsNothingAndStartsNoSpan(kind: TransportKind) async throws {
        try await withServer { base in
            let tracer = W3CTracer()
            let webservice = kind.webservice(
                cache: ResponseCache(byteLimit: 1_000_000), middleware: [DistributedTracing(tracer: tracer)])
            let cacheable = bytes(base / "faults/cacheable")
            let first = try await webservice.load(cacheable)
            // The trace fields differ for every request: the cache must not count them as part of its key.
            #expect(try await webservice.load(cacheable) == first)
            #expect(tracer.finishedSpans.filter { $0.kind == .client }.count == 1)
            #expect(tracer.finishedSpans.filter { $0.kind == .internal }.count == 2, "each load has its span")
        }
    }

    /// With a tracer the process bootstrapped, which AsyncHTTPClient would trace with too: in a child process, since
    /// the bootstrap is for the whole process.
    @Test(arguments: TransportKind.allCases)
    func bootstrappedTracerGivesOneSpanAndOneTraceparentPerRequest(kind: TransportKind) async throws {
        try await inChildProcess(case: kind) {
            let tracer = W3CTracer()
            InstrumentationSystem.bootstrap(tracer)
            try await withServer { base in
                let webservice = kind.webservice(middleware: [DistributedTracing()])
                let received = try await webservice.load(Resource<[String: String]>(get: base / "faults/headers"))
                let spans = tracer.finishedSpans.filter { $0.kind == .client }
                #expect(spans.count == 1, "\(tracer.finishedSpans)")
                #expect(received["traceparent"] == spans.first?.ids.traceparent)
            }
        }
    }

    /// A middleware of the app's own that hands its loads to `DistributedTracing`: the pipeline finds no
    /// `DistributedTracing` in the array, yet each request is a span, since no layer looks for it by its type.
    private struct AppTracing: Middleware {
        var tracing: DistributedTracing

        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            try await tracing.intercept(request, context: context, next: next)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func distributedTracingInsideAnotherMiddlewareStillTracesEachRequest(kind: TransportKind) async throws {
        try await withServer { base in
            let tracer = W3CTracer()
            let webservice = kind.webservice(middleware: [AppTracing(tracing: DistributedTracing(tracer: tracer))])
            let received = try await webservice.load(Resource<[String: String]>(get: base / "faults/headers"))
            let spans = tracer.finishedSpans.filter { $0.kind == .client }
            #expect(spans.map(\.operationName) == ["GET"])
            #expect(received["traceparent"] == spans.first?.ids.traceparent)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func withoutDistributedTracingNothingIsTraced(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice(middleware: [RetryPolicy()])
            let received = try await webservice.load(Resource<[String: String]>(get: base / "faults/headers"))
            #expect(received["traceparent"] == nil)
        }
    }
}
