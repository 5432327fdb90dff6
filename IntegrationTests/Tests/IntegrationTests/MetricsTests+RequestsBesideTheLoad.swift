import Foundation
import MetricsTestKit
import ResourceKit
import ResourceKitTesting
import Synchronization
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitMetrics
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests that end beside their load's own path: a background revalidation after its load, a probe abandoned by the
/// wait for the network; and an origin's attributes, which a URL that only looks like it doesn't get.
extension MetricsTests {
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
        // One probe, abandoned at its timeout; then the wait's clock runs out, and the second attempt follows.
        var policy = RetryPolicy(maxAttempts: 2, baseDelay: 0, networkWait: 30, clock: OneProbeClock())
        policy.probeTimeout = 0.1
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
}

/// A clock whose sleeps end at once, each after the first moving its time on by a minute: the wait for the network
/// sends one probe after its first pause, and its second pause outlasts the wait.
private final class OneProbeClock: Clock {
    private let start = ContinuousClock.now
    private let sleeps = Mutex(0)

    var now: ContinuousClock.Instant { start + .seconds(60) * max(sleeps.withLock { $0 } - 1, 0) }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        sleeps.withLock { $0 += 1 }
    }
}
