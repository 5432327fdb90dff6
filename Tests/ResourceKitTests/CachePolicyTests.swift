import Foundation
import ResourceKit
import ResourceKitTesting
import Synchronization
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How each ``CachePolicy`` and RFC 5861's `stale-while-revalidate` and `stale-if-error` decide between the stored
/// response and the network.
///
/// The origin answers each request with its number ("1", "2", …) unless it is switched off (a connectivity failure) or
/// to an error status, and confirms the ETag `"v1"` with a 304; the clock is the test's, so nothing sleeps.
@Suite struct CachePolicyTests {
    // MARK: The policies

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func httpAnswersFreshThenAsksTheServer() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60")
        #expect(try await f.load() == "1")
        f.clock.advance(30)
        #expect(try await f.load() == "1")
        f.clock.advance(30)
        #expect(try await f.load() == "2")
        #expect(f.cacheEvents == ["http 0"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func revalidateAsksTheServerEvenWhileFresh() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60", etag: #""v1""#)
        #expect(try await f.load() == "1")
        #expect(try await f.load(.revalidate) == "1")
        #expect(await f.origin.conditionalRequests == 1)
        #expect(f.cacheEvents == ["revalidated"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func revalidateWithoutValidatorsLoadsAgain() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60")
        #expect(try await f.load() == "1")
        #expect(try await f.load(.revalidate) == "2")
        #expect(try await f.load() == "2")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func storedElseNetworkAnswersWhateverTheAgeAndLoadsOnlyWhenNothingIsStored() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "no-cache")
        #expect(try await f.load(.storedElseNetwork) == "1")
        f.clock.advance(86_400)
        #expect(try await f.load(.storedElseNetwork) == "1")
        #expect(await f.origin.count == 1)
        #expect(f.cacheEvents == ["storedElseNetwork 86400"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func networkElseStoredPrefersTheNetwork() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60")
        #expect(try await f.load(.networkElseStored) == "1")
        #expect(try await f.load(.networkElseStored) == "2")
        #expect(f.cacheEvents.isEmpty)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [Outage.unreachable, .status(503), .status(500), .status(502), .status(504)])
    func networkElseStoredAnswersWithTheStoredResponseWhenTheServerFails(outage: Outage) async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60")
        #expect(try await f.load(.networkElseStored) == "1")
        await f.origin.set(outage: outage)
        f.clock.advance(100)
        #expect(try await f.load(.networkElseStored) == "1")
        #expect(f.cacheEvents == ["networkElseStored 40"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func networkElseStoredPassesOtherFailuresOn() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60")
        _ = try await f.load(.networkElseStored)
        await f.origin.set(outage: .status(404))
        let error = try await #require(throws: WebserviceError.self) {
            try await f.load(.networkElseStored)
        }
        #expect(try requireCase(\.unacceptableStatus, of: error).statusCode == 404)
        // The 404 says the stored response is gone.
        await #expect(throws: WebserviceError.self) { try await f.load(.storedOnly) }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func networkElseStoredWithNothingStoredThrowsTheFailure() async throws {
        let f = Fixture()
        await f.origin.set(outage: .unreachable)
        let error = try await #require(throws: WebserviceError.self) {
            try await f.service.load(f.feed(.networkElseStored))
        }
        #expect((try requireCase(\.transport, of: error) as? URLError)?.code == .notConnectedToInternet)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func storedOnlyNeverUsesTheNetwork() async throws {
        let f = Fixture()
        let error = try await #require(throws: WebserviceError.self) { try await f.load(.storedOnly) }
        #expect(error.reason.isNotStored, "\(error)")
        #expect(await f.origin.count == 0)
        await f.origin.set(cacheControl: "no-store")
        _ = try await f.load()
        await #expect(throws: WebserviceError.self) { try await f.load(.storedOnly) }
        await f.origin.set(cacheControl: "max-age=1")
        _ = try await f.load()
        f.clock.advance(3_600)
        #expect(try await f.load(.storedOnly) == "2")
        #expect(await f.origin.count == 2)
        #expect(f.cacheEvents == ["storedOnly 3599"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func storedOnlyWithoutACacheFailsBeforeSending() async throws {
        let f = Fixture()
        let origin = f.origin
        let events = Mutex<[String]>([])
        let credentialsAsked = Mutex(0)
        let uncached = Webservice(
            transport: StubTransport.answering(.computed { request in await origin.answer(request) }),
            middleware: [
                Authentication(for: [baseURL]) { _ in
                    credentialsAsked.withLock { $0 += 1 }
                    return "Bearer t"
                }
            ],
            observer: { event in events.withLock { $0.append("\(event.kind)") } })
        let error = try await #require(throws: WebserviceError.self) { try await uncached.load(f.feed(.storedOnly)) }
        guard case .notStored = error.reason else { throw error }
        // Nothing ran: no credential was asked for, no event told, nothing sent.
        #expect(await origin.count == 0)
        #expect(credentialsAsked.withLock { $0 } == 0)
        #expect(events.withLock { $0 }.isEmpty)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func storedOnlyNeverDownloads() async throws {
        let f = Fixture()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stored-only-\(UUID())")
        var download = Resource<URL>(url: baseURL.appendingPathComponent("feed"), downloadingTo: file)
        download.cachePolicy = .storedOnly
        let error = try await #require(throws: WebserviceError.self) { try await f.service.load(download) }
        #expect(error.reason.isNotStored, "\(error)")
        #expect(await f.origin.count == 0)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: ["max-age=1", "max-age=1, stale-if-error=600"])
    func theResourceTimeoutIsAFailureTheStoredResponseAnswers(cacheControl: String) async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: cacheControl)
        _ = try await f.load()
        f.clock.advance(10)
        await f.origin.hold()
        // Only stale-if-error lets HTTP's rules answer; networkElseStored always does.
        var slow = f.feed(cacheControl.contains("stale-if-error") ? .http : .networkElseStored)
        // Long enough that a loaded machine offers the stored answer before it passes.
        slow.timeout = 10
        #expect(try await f.service.load(slow) == "1")
        #expect(f.cacheEvents.count == 1)
        await f.origin.release()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theResourceTimeoutStillEndsALoadWithNothingToFallBackOn() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=1")
        _ = try await f.load()
        f.clock.advance(10)
        await f.origin.hold()
        var slow = f.feed()
        slow.timeout = 0.2
        let error = try await #require(throws: WebserviceError.self) { try await f.service.load(slow) }
        #expect(error.reason.isTimedOut, "\(error)")
        await f.origin.release()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func removeAllDuringABackgroundRevalidationKeepsItsAnswerOut() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=1, stale-while-revalidate=600")
        _ = try await f.load()
        f.clock.advance(10)
        await f.origin.hold()
        #expect(try await f.load() == "1")
        try await eventually("the background revalidation was sent") { await f.origin.waiting == 1 }
        try await f.service.cache?.removeAll()
        await f.origin.release()
        try await eventually("the background revalidation ended") { await f.origin.count == 2 }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(await f.service.cache?.count == 0)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aFailedLoadLeavesTheStoredResponseForOfflineUse() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60")
        _ = try await f.load()
        f.clock.advance(120)
        await f.origin.set(outage: .status(503))
        await #expect(throws: WebserviceError.self) { try await f.load() }
        #expect(try await f.load(.storedOnly) == "1")
    }

    // MARK: stale-while-revalidate

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func staleWhileRevalidateAnswersAtOnceAndRevalidatesOnceInTheBackground() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60, stale-while-revalidate=30", etag: #""v1""#)
        #expect(try await f.load() == "1")
        await f.origin.hold()
        f.clock.advance(70)
        #expect(try await f.load() == "1")
        #expect(try await f.load() == "1")
        try await eventually("the background revalidation was sent") { await f.origin.waiting == 1 }
        await f.origin.release()
        try await eventually("the 304 made the response fresh again") { f.cacheEvents.last == "revalidated" }
        #expect(await f.origin.conditionalRequests == 1)
        #expect(try await f.load() == "1")
        #expect(f.cacheEvents == ["http 10", "http 10", "revalidated", "http 0"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func staleWhileRevalidateEndsAfterItsWindow() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60, stale-while-revalidate=30")
        _ = try await f.load()
        f.clock.advance(91)
        #expect(try await f.load() == "2")
        #expect(f.cacheEvents.isEmpty)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aBackgroundRevalidationStoresTheNewResponse() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60, stale-while-revalidate=30")
        _ = try await f.load()
        f.clock.advance(61)
        #expect(try await f.load() == "1")
        try await eventually("the new response was stored") { (try? await f.load(.storedOnly)) == "2" }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func backgroundRevalidationsAreOnePerResponseAndAtMostFourAtOnce() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60, stale-while-revalidate=600")
        let feeds = (0..<6).map { f.feed(path: "feed\($0)") }
        for feed in feeds { _ = try await f.service.load(feed) }
        f.clock.advance(61)
        await f.origin.hold()
        for index in Array(feeds.indices) + Array(feeds.indices) {
            #expect(try await f.service.load(feeds[index]) == "\(index + 1)")
        }
        try await eventually("four revalidations were sent") { await f.origin.waiting == 4 }
        await f.origin.release()
        try await eventually("the revalidations were stored") { await f.origin.count == 10 }
        try await Task.sleep(for: .milliseconds(50))
        #expect(await f.origin.count == 10)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aBackgroundRevalidationIsCancelledWhenItsCacheIsReleased() async throws {
        let hanging = HangingOrigin()
        do {
            let service = Webservice(
                transport: StubTransport.answering(.computed { _ in try await hanging.answer() }),
                cache: ResponseCache(byteLimit: 1_000_000))
            let feed = Fixture().feed()
            #expect(try await service.load(feed) == "stored")
            #expect(try await service.load(feed) == "stored")
            try await eventually("the background revalidation was sent") { await hanging.requests == 2 }
        }
        try await eventually("the revalidation was cancelled with the cache") { await hanging.cancelled == 1 }
    }

    // MARK: stale-if-error

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [Outage.unreachable, .status(500), .status(502), .status(503), .status(504)])
    func staleIfErrorAnswersWhenTheServerFailsWithinItsWindow(outage: Outage) async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60, stale-if-error=300")
        _ = try await f.load()
        await f.origin.set(outage: outage)
        f.clock.advance(200)
        #expect(try await f.load() == "1")
        f.clock.advance(161)
        await #expect(throws: WebserviceError.self) { try await f.load() }
        #expect(f.cacheEvents == ["http 140"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func staleIfErrorDoesNotHideOtherStatuses() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60, stale-if-error=300")
        _ = try await f.load()
        await f.origin.set(outage: .status(403))
        f.clock.advance(100)
        await #expect(throws: WebserviceError.self) { try await f.load() }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: ["max-age=60, stale-if-error=300, must-revalidate", "no-cache, stale-if-error=300"])
    func mustRevalidateAndNoCacheRuleOutStaleAnswers(cacheControl: String) async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: cacheControl + ", stale-while-revalidate=300")
        _ = try await f.load()
        await f.origin.set(outage: .unreachable)
        f.clock.advance(100)
        await #expect(throws: WebserviceError.self) { try await f.load() }
        // A caller's own policy may still choose the stored response.
        #expect(try await f.load(.networkElseStored) == "1")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aCancelledLoadIsNotAnsweredFromTheCache() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=1, stale-if-error=300")
        _ = try await f.load()
        f.clock.advance(10)
        await f.origin.hold()
        let load = Task { try await f.load(.networkElseStored) }
        try await eventually("the request was sent") { await f.origin.waiting == 1 }
        load.cancel()
        await f.origin.set(outage: .unreachable)
        await f.origin.release()
        await #expect(throws: CancellationError.self) { try await load.value }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [(CachePolicy.storedOnly, "max-age=60"), (.storedElseNetwork, "max-age=60")])
    func aRequestThatSkipsTheCacheIgnoresTheStoredResponse(policy: CachePolicy, cacheControl: String) async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: cacheControl)
        _ = try await f.load()
        var refresh = f.feed(policy)
        refresh.headers["Cache-Control"] = "no-cache"
        if policy == .storedOnly {
            await #expect(throws: WebserviceError.self) { try await f.service.load(refresh) }
        } else {
            #expect(try await f.service.load(refresh) == "2")
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func eventsDescribeThePolicyAndTheStaleness() async throws {
        let f = Fixture()
        await f.origin.set(cacheControl: "max-age=60")
        _ = try await f.load()
        f.clock.advance(90)
        _ = try await f.load(.storedOnly)
        #expect(
            f.events.descriptions.last
                == "GET https://api.example.com/feed: answered from the cache (storedOnly), 30 s stale")
    }
}

/// One test's origin, clock, event log and web service.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private struct Fixture {
    let origin = Origin()
    let clock = ManualClock()
    let events = EventLog()

    /// A web service with a cache on the test clock, in front of ``origin``.
    let service: Webservice

    init() {
        let (origin, clock) = (origin, clock)
        service = Webservice(
            transport: StubTransport.answering(.computed { request in await origin.answer(request) }),
            cache: ResponseCache(byteLimit: 1_000_000, now: { clock.now }),
            observer: events.observer
        )
    }

    /// Loads ``feed(_:)`` under `policy`: the origin's answer number.
    func load(_ policy: CachePolicy = .http) async throws -> String {
        try await service.load(feed(policy))
    }

    /// The resource for `…/path` under `policy`, whose model is the origin's answer number.
    func feed(_ policy: CachePolicy = .http, path: String = "feed") -> Resource<String> {
        var resource = Resource(url: baseURL.appendingPathComponent(path)) { String(decoding: $0, as: UTF8.self) }
        resource.cachePolicy = policy
        return resource
    }

    /// The events the cache reported, as `cacheHit(policy, staleness)` or `revalidated`.
    var cacheEvents: [String] {
        events.events.compactMap { event in
            switch event.kind {
            case .cacheHit(let policy, let staleness): "\(policy) \(Int(staleness))"
            case .revalidated: "revalidated"
            default: nil
            }
        }
    }

}

/// How the test origin fails.
enum Outage: Sendable, CustomTestStringConvertible {
    /// No connection: `URLError(.notConnectedToInternet)`.
    case unreachable
    /// An answer with this status.
    case status(Int)

    var testDescription: String {
        switch self {
        case .unreachable: "unreachable"
        case .status(let status): "status \(status)"
        }
    }
}

/// A server that numbers its answers, with the `Cache-Control` and `ETag` it is set to, and confirms its ETag with a
/// 304; it can be switched to an outage, and can hold requests until released.
private actor Origin {
    private(set) var count = 0
    private(set) var conditionalRequests = 0
    private var cacheControl = "max-age=60"
    private var etag: String?
    private var outage: Outage?
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    var waiting: Int { waiters.count }

    func set(cacheControl: String, etag: String? = nil) {
        self.cacheControl = cacheControl
        self.etag = etag
        outage = nil
    }

    func set(outage: Outage) { self.outage = outage }

    /// Makes the next requests wait until ``release()``.
    func hold() { held = true }

    func release() {
        held = false
        for waiter in waiters { waiter.resume() }
        waiters = []
    }

    func answer(_ request: Request) async -> StubAnswer {
        if held { await withCheckedContinuation { waiters.append($0) } }
        switch outage {
        case .unreachable: return .failure(.notConnectedToInternet)
        case .status(let status): return .status(status)
        case nil: break
        }
        var headers = ["Cache-Control": cacheControl]
        headers["ETag"] = etag
        if let etag, request.value(forHTTPHeaderField: "If-None-Match") == etag {
            conditionalRequests += 1
            return .status(304, headers: headers)
        }
        count += 1
        return .status(200, headers: headers, body: Data(String(count).utf8))
    }
}

/// A server whose first answer may be stored and is stale at once, for `stale-while-revalidate`, and which answers no
/// later request: each waits until its task is cancelled.
private actor HangingOrigin {
    private(set) var requests = 0
    private(set) var cancelled = 0

    func answer() async throws -> StubAnswer {
        requests += 1
        if requests > 1 {
            do {
                try await Task.sleep(for: .seconds(3_600))
            } catch {
                cancelled += 1
                throw error
            }
        }
        let headers = ["Cache-Control": "max-age=0, stale-while-revalidate=600"]
        return .status(200, headers: headers, body: Data("stored".utf8))
    }
}

/// A clock the test moves by hand.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class ManualClock: Sendable {
    private let date = Mutex(Date(timeIntervalSinceReferenceDate: 800_000_000))

    var now: Date { date.withLock { $0 } }

    func advance(_ seconds: TimeInterval) { date.withLock { $0 += seconds } }
}
