import CoreMetrics
import Foundation
import Logging
import MetricsTestKit
import ResourceKitTesting
import Synchronization
import Testing
import Tracing
import W3CTracing

@testable import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Telemetry at its edges: a request the cache sends after its load, a URL without a server, metadata bound
/// around a load, a load span after the load's deadline.
@Suite(.timeLimit(.minutes(1))) struct TelemetryEdgeTests {
    /// A transport whose first request is answered `200` with `max-age=0, stale-while-revalidate=600`, and whose later
    /// requests wait `delay` seconds (or until cancelled), then answer `304`.
    final class StaleTransport: WholeTransport {
        let count = Mutex(0)
        let delay: TimeInterval
        init(delay: TimeInterval) { self.delay = delay }

        func answer(_ request: Request) async throws -> (Data, URLResponse) {
            let n = count.withLock {
                $0 += 1; return $0
            }
            let url = request.url
            if n == 1 {
                let head = HTTPURLResponse(
                    url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                    headerFields: [
                        "Cache-Control": "max-age=0, stale-while-revalidate=600", "ETag": "\"v1\"",
                        "Content-Type": "text/plain",
                    ])!
                return (Data("hello".utf8), head)
            }
            try await Task.sleep(for: .seconds(delay))
            let head = HTTPURLResponse(
                url: url, statusCode: 304, httpVersion: "HTTP/1.1", headerFields: ["ETag": "\"v1\""])!
            return (Data(), head)
        }
    }

    /// A background revalidation (stale-while-revalidate) goes through the load's observer after the load finished;
    /// cancelled with its cache, it still ends, and the active requests go back to 0.
    @Test func aBackgroundRevalidationCancelledWithItsCacheIsNoLongerActive() async throws {
        let metrics = TestMetrics()
        let transport = StaleTransport(delay: 30)
        let url = URL(string: "https://api.example.com/items")!
        do {
            let webservice = Webservice(
                transport: transport, cache: ResponseCache(byteLimit: 1_000_000),
                middleware: [LoadMetrics(factory: metrics)])
            _ = try await webservice.load(Resource<Data>(url: url))
            _ = try await webservice.load(Resource<Data>(url: url))  // stale: answered, revalidated in background
            try await waitUntil { transport.count.withLock { $0 } == 2 }
            let active = try #require(metrics.meters(label: "http.client.active_requests").first)
            #expect(active.lastValue == 1, "the background revalidation is active")
        }
        // The web service and its cache are gone: the revalidation is cancelled, and ends when its task has.
        try await waitUntil {
            metrics.timers(label: "http.client.request.duration").count == 2
        }
        let meters = metrics.meters(label: "http.client.active_requests")
        let last = meters.map { $0.lastValue ?? 0 }
        let durations = metrics.timers(label: "http.client.request.duration").map(\.dimensions)
        #expect(durations.contains { $0.contains { $0 == ("error.type", "CancellationError") } }, "\(durations)")
        #expect(last.allSatisfy { $0 == 0 }, "active requests after everything ended: \(last)")
    }

    /// A transport whose first `GET` can't connect and whose later ones answer `200`, and whose `HEAD`s (the retry
    /// policy's probes) fail only once the second `GET` has arrived, cancelled or not.
    final class SlowProbes: WholeTransport {
        let gets = Mutex(0)

        func answer(_ request: Request) async throws -> (Data, URLResponse) {
            if request.method == "HEAD" {
                for _ in 0..<500 where gets.withLock({ $0 }) < 2 {
                    await uncancellablePause(0.01)
                }
                throw URLError(.notConnectedToInternet)
            }
            let first = gets.withLock {
                $0 += 1
                return $0 == 1
            }
            if first { throw URLError(.notConnectedToInternet) }
            let head = HTTPURLResponse(url: request.url, statusCode: 200, httpVersion: nil, headerFields: [:])!
            return (Data("ok".utf8), head)
        }
    }

    /// A probe the wait for the network abandoned at its timeout ends after the next attempt was sent: each request is
    /// measured with its own method, and none stays active.
    @Test func aProbeThatEndsAfterTheNextAttemptIsMeasuredAsItself() async throws {
        let metrics = TestMetrics()
        // One probe, abandoned at its timeout; then the wait's clock has run out, and the second attempt follows.
        var policy = RetryPolicy(maxAttempts: 2, baseDelay: 0, networkWait: 30)
        policy.probeTimeout = 0.1
        policy.sleep = { _ in }
        let readings = Mutex(0)
        policy.uptime = {
            readings.withLock {
                $0 += 1
                return $0 <= 3 ? 0 : 60_000_000_000
            }
        }
        let webservice = Webservice(transport: SlowProbes(), middleware: [LoadMetrics(factory: metrics), policy])
        let loaded = try await webservice.load(Resource<Data>(url: URL(string: "https://api.example.com/items")!))
        #expect(loaded == Data("ok".utf8))
        try await waitUntil { metrics.timers(label: "http.client.request.duration").flatMap(\.values).count >= 3 }
        let methods = metrics.timers(label: "http.client.request.duration").flatMap { timer in
            timer.values.map { _ in timer.dimensions.first { $0.0 == "http.request.method" }?.1 ?? "" }
        }
        #expect(methods.sorted() == ["GET", "GET", "HEAD"], "\(methods)")
        let active = metrics.meters(label: "http.client.active_requests")
        #expect(active.count == 2, "one meter for GET, one for HEAD")
        #expect(active.allSatisfy { $0.lastValue == 0 }, "\(active.map { ($0.dimensions, $0.values) })")
    }

    /// `https:api.example.com` (no `//`, so no host for `URL`) keeps no attributes that `https://api.example.com`
    /// would then get.
    @Test func aURLWithoutSlashesDoesNotGiveItsAttributesToTheOriginItLooksLike() throws {
        let noSlashes = URL(string: "https:api.example.com/next")!
        let origins = MeasuredOrigins()
        _ = origins.attributes(method: "GET", url: noSlashes)
        let real = origins.attributes(method: "GET", url: URL(string: "https://api.example.com/items")!)
        #expect(real.common.contains { $0.0 == "server.address" && $0.1 == "api.example.com" })
        #expect(real.common.contains { $0.0 == "server.port" && $0.1 == "443" })
    }

    /// A load in `withLogger(mergingMetadata:)` with no logger bound before logs to the middleware's logger, with
    /// that metadata.
    @Test func metadataMergedAroundALoadIsInItsLinesWithTheMiddlewaresLogger() async throws {
        let lines = RecordingLogHandler.Lines()
        let transport = StaleTransport(delay: 0)
        let webservice = Webservice(transport: transport, middleware: [LoadLogging(logger: .recording(into: lines))])
        let url = URL(string: "https://api.example.com/items")!
        try await withLogger(mergingMetadata: ["request.id": "42"]) { _ in
            _ = try await webservice.load(Resource<Data>(url: url))
        }
        #expect(!lines.all.isEmpty)
        #expect(lines.all.allSatisfy { $0.metadata["request.id"] == "42" })
    }

    /// A W3C tracer that also counts the spans it starts.
    struct CountingTracer: Tracer {
        final class Counts: Sendable { let started = Mutex<[String]>([]) }
        let inner = W3CTracer()
        let counts = Counts()

        func startSpan<Instant: TracerInstant>(
            _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
            at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
        ) -> W3CSpan {
            counts.started.withLock { $0.append("\(operationName)/\(kind)") }
            return inner.startSpan(
                operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID,
                line: line)
        }
        func inject<Carrier, Inject: Injector>(
            _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
        ) where Inject.Carrier == Carrier { inner.inject(context, into: &carrier, using: injector) }
        func extract<Carrier, Extract: Extractor>(
            _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
        ) where Extract.Carrier == Carrier {}
        func forceFlush() {}
    }

    /// A middleware whose work (say, a token fetch) doesn't stop when the load is cancelled.
    struct Uncancellable: Middleware {
        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            await uncancellablePause(0.3)
            return try await next(request, context)
        }
    }

    struct OK: WholeTransport {
        func answer(_ request: Request) async throws -> (Data, URLResponse) {
            (Data("{}".utf8), HTTPURLResponse(url: request.url, statusCode: 200, httpVersion: nil, headerFields: [:])!)
        }
    }

    /// A load that times out before its pipeline reaches DistributedTracing: the abandoned pipeline starts no load
    /// span after the load ended, and every span started ends.
    @Test func noLoadSpanStartsAfterTheLoadTimedOut() async throws {
        let tracer = CountingTracer()
        let webservice = Webservice(
            transport: OK(), middleware: [Uncancellable(), DistributedTracing(tracer: tracer)])
        var resource = Resource<Data>(url: URL(string: "https://api.example.com/x")!)
        resource.timeout = 0.05
        await #expect(throws: (any Error).self) { try await webservice.load(resource) }
        try await Task.sleep(for: .milliseconds(800))
        let started = tracer.counts.started.withLock { $0 }
        let finished = tracer.inner.finishedSpans.map { "\($0.operationName)/\($0.kind)" }
        #expect(!started.contains("GET/internal"), "\(started)")
        #expect(started.count == finished.count, "every span started ends: started \(started), ended \(finished)")
    }
}

/// Waits `seconds`, whether or not the task is cancelled meanwhile (`Task.sleep` would end at once): work slow to stop.
private func uncancellablePause(_ seconds: TimeInterval) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { done.resume() }
    }
}
