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

/// Waiting for the network after a failure to connect, before the retry policy's next attempt
/// (``RetryPolicy/networkWait``): loads against a stub server that is down for a while, on a virtual clock.
@Suite struct RetryPolicyNetworkWaitTests {
    /// A web service with `policy` and then `after`, the policy's pauses (probes and backoff) on `clock`, its jitter
    /// fixed by `random`: at 1, the backoff before the second attempt is the full half second.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private static func webservice(
        _ transport: StubTransport,
        clock: VirtualClock,
        policy: RetryPolicy = RetryPolicy(maxAttempts: 2, networkWait: 30),
        after: [any Middleware] = [],
        random: Double = 1,
        events: EventLog? = nil
    ) -> Webservice {
        var policy = policy
        policy.clock = clock
        policy.random = { random }
        // A probe's deadline is on the real clock, and past it a stub's failure is a timeout: a test process starved
        // for seconds must not turn an answer into one.
        policy.probeTimeout = 600
        return Webservice(transport: transport, middleware: [policy] + after, observer: events?.observer)
    }

    /// The `waitingForNetwork` events `events` received: each wait's bound.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private static func waits(in events: EventLog) -> [TimeInterval] {
        events.events.compactMap { event in
            if case .waitingForNetwork(_, let maxWait) = event.kind { maxWait } else { nil }
        }
    }

    /// The requests `transport` was sent with `method`.
    private static func requests(_ method: String, to transport: StubTransport) async -> [Request] {
        await transport.requests.filter { $0.method == method }
    }

    // MARK: Waiting

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aLongOutageCostsOneAttemptAndTheNextOneSucceeds() async throws {
        let clock = VirtualClock()
        let transport = StubTransport.down(for: 10, on: clock)
        let value = try await Self.webservice(transport, clock: clock).load(thing())
        #expect(value == "done")
        #expect(await Self.requests("GET", to: transport).count == 2)
        #expect(await Self.requests("HEAD", to: transport).count >= 1)
        #expect(clock.elapsed >= 10 && clock.elapsed < 15)
        // The policy's own backoff follows the wait.
        #expect(clock.sleeps.last == 0.5)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func withoutTheWaitTheSameOutageSpendsEveryAttempt() async throws {
        let clock = VirtualClock()
        let transport = StubTransport.down(for: 10, on: clock)
        let webservice = Self.webservice(transport, clock: clock, policy: RetryPolicy(maxAttempts: 2))
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(thing()) }
        #expect(error.transportErrorCode == .cannotConnectToHost)
        #expect(error.attempts == 2)
        #expect(clock.sleeps == [0.5])
        #expect(await Self.requests("HEAD", to: transport).isEmpty)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func givesUpAfterMaxWaitAndRethrowsTheFailure() async throws {
        let clock = VirtualClock()
        let transport = StubTransport.down(for: .infinity, on: clock)
        let webservice = Self.webservice(transport, clock: clock, policy: RetryPolicy(maxAttempts: 2, networkWait: 5))
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(thing()) }
        #expect(error.transportErrorCode == .cannotConnectToHost)
        #expect(error.attempts == 2)
        // The last pause is cut to the bound, then the backoff; the second attempt's failure isn't waited for, as none
        // follows it.
        #expect(clock.sleeps == [0.25, 0.5, 1, 2, 1.25, 0.5])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func probesBackOffWithJitterUpToTheCap() async throws {
        let clock = VirtualClock()
        let transport = StubTransport.down(for: .infinity, on: clock)
        let policy = RetryPolicy(maxAttempts: 2, networkWait: 20)
        #expect(policy.maxProbeInterval == 4)
        _ = try? await Self.webservice(transport, clock: clock, policy: policy).load(thing())
        #expect(clock.sleeps == [0.25, 0.5, 1, 2, 4, 4, 4, 4, 0.25, 0.5])
        #expect(await Self.requests("HEAD", to: transport).count == 8)

        let jittered = VirtualClock()
        let halved = StubTransport.down(for: .infinity, on: jittered)
        _ = try? await Self.webservice(halved, clock: jittered, policy: policy, random: 0).load(thing())
        #expect(jittered.sleeps.prefix(6) == [0.125, 0.25, 0.5, 1, 2, 2])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theResourceTimeoutBoundsTheWait() async throws {
        var resource = thing()
        // Below the 30 s `maxWait`, and long enough that a loaded machine doesn't reach it in real time first.
        resource.timeout = 25
        let (clock, events) = (VirtualClock(), EventLog())
        let transport = StubTransport.down(for: .infinity, on: clock)
        // Without backoff, so that the clock's time is the wait's.
        let policy = RetryPolicy(maxAttempts: 2, baseDelay: 0, networkWait: 30)
        let webservice = Self.webservice(transport, clock: clock, policy: policy, events: events)
        await #expect(throws: WebserviceError.self) { try await webservice.load(resource) }
        // Within the 25 s the resource has left, however much of it a loaded machine took, not the 30 s `networkWait`.
        #expect(clock.elapsed > 0 && clock.elapsed <= 25)
        let bounds = Self.waits(in: events)
        #expect(bounds.count == 1 && bounds.allSatisfy { $0 > 0 && $0 <= 25 })
    }

    // MARK: When it doesn't wait

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [
        StubAnswer.failure(.timedOut), .failure(.serverCertificateUntrusted), .failure(.badURL), .status(503),
        .status(404),
    ])
    func otherFailuresAndStatusesAreNotWaitedFor(answer: StubAnswer) async throws {
        let (clock, events) = (VirtualClock(), EventLog())
        let transport = StubTransport.answering(answer)
        _ = try? await Self.webservice(transport, clock: clock, events: events).load(thing())
        // At most the backoff before a retry.
        #expect(clock.sleeps.allSatisfy { $0 == 0.5 })
        #expect(Self.waits(in: events).isEmpty)
        #expect(await Self.requests("HEAD", to: transport).isEmpty)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func noWaitWhenNoAttemptFollows() async throws {
        let clock = VirtualClock()
        let transport = StubTransport.down(for: 10, on: clock)
        let once = Self.webservice(transport, clock: clock, policy: RetryPolicy(maxAttempts: 1, networkWait: 30))
        await #expect(throws: WebserviceError.self) { try await once.load(thing()) }
        let post = Self.webservice(transport, clock: clock, policy: RetryPolicy(maxAttempts: 3, networkWait: 30))
        await #expect(throws: WebserviceError.self) { try await post.load(thing(.post(Data("{}".utf8)))) }
        #expect(clock.sleeps.isEmpty)
        #expect(await Self.requests("HEAD", to: transport).isEmpty)
    }

    // MARK: Probing

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [0, -1, TimeInterval.nan])
    func aProbeIntervalBelowAQuarterSecondProbesEveryQuarterSecond(interval: TimeInterval) async throws {
        let clock = VirtualClock()
        let transport = StubTransport.down(for: .infinity, on: clock)
        var policy = RetryPolicy(maxAttempts: 2, networkWait: 2)
        policy.maxProbeInterval = interval
        _ = try? await Self.webservice(transport, clock: clock, policy: policy).load(thing())
        // Eight pauses fill the 2 s; the wait ends before a probe after the last, and the backoff follows.
        #expect(clock.sleeps == Array(repeating: 0.25, count: 8) + [0.5])
        #expect(await Self.requests("HEAD", to: transport).count == 7)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func aClockThatDoesNotWaitStillEndsTheWaitAfterTheProbesOfOne(timeStandsStill: Bool) async throws {
        var resource = thing()
        // Past the 1 s wait, on the real clock: the probes a wait makes are the policy's to bound, not the timeout's.
        resource.timeout = 10
        let transport = StubTransport.answering(.failure(.cannotConnectToHost))
        var policy = RetryPolicy(maxAttempts: 2, networkWait: 1, clock: ClockThatDoesNotWait(timeStandsStill))
        policy.random = { 1 }
        let webservice = Webservice(transport: transport, middleware: [policy])
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(resource) }
        #expect(error.transportErrorCode == .cannotConnectToHost)
        // The pauses asked for fill the second as a clock that waits would: a quarter, a half, and the quarter left.
        #expect(await Self.requests("HEAD", to: transport).count == 2)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [StubAnswer.status(404), .status(500), .status(405), .failure(.serverCertificateUntrusted)])
    func anyAnswerToAProbeEndsTheWait(probeAnswer: StubAnswer) async throws {
        let transport = StubTransport([
            .init("HEAD", "/**", probeAnswer),
            .init("GET", "/**", .sequence([.failure(.notConnectedToInternet), .status(200, body: Data("done".utf8))])),
        ])
        let clock = VirtualClock()
        let value = try await Self.webservice(transport, clock: clock).load(thing())
        #expect(value == "done")
        #expect(clock.sleeps == [0.25, 0.5])
        #expect(await Self.requests("HEAD", to: transport).count == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theProbeIsAHEADOfTheURLWithTheHeaderFieldsButNoBody() async throws {
        var resource = thing(.put(Data("{\"a\":1}".utf8)))
        resource.headers = ["Content-Type": "application/json", "Authorization": "Bearer abc", "X-Trace": "7"]
        let clock = VirtualClock()
        let transport = StubTransport.down(for: 1, on: clock)
        _ = try await Self.webservice(transport, clock: clock).load(resource)
        let probe = try #require(await Self.requests("HEAD", to: transport).first)
        #expect(probe.url == resource.url)
        #expect(probe.body == nil)
        #expect(probe.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(probe.value(forHTTPHeaderField: "Content-Length") == nil)
        #expect(probe.value(forHTTPHeaderField: "Authorization") == "Bearer abc")
        #expect(probe.value(forHTTPHeaderField: "X-Trace") == "7")
        #expect(
            await Self.requests("PUT", to: transport).map(\.bodyBytes) == [resource.method.body, resource.method.body])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theProbePassesTheMiddlewareAfterThePolicy() async throws {
        let clock = VirtualClock()
        let transport = StubTransport.down(for: 1, on: clock)
        let key = HeaderField(name: "X-API-Key", value: "k")
        _ = try await Self.webservice(transport, clock: clock, after: [key]).load(thing())
        let probes = await Self.requests("HEAD", to: transport)
        #expect(!probes.isEmpty && probes.allSatisfy { $0.value(forHTTPHeaderField: "X-API-Key") == "k" })
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aMiddlewaresOwnFailureToAProbeEndsTheWait() async throws {
        struct Refused: Error {}
        let clock = VirtualClock()
        let transport = StubTransport.down(for: .infinity, on: clock)
        let failing = FailingProbe(error: Refused())
        let webservice = Self.webservice(transport, clock: clock, after: [failing])
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(thing()) }
        // The first probe's failure is the next attempt's to meet, not the load's end: that attempt goes out after the
        // backoff.
        #expect(clock.sleeps == [0.25, 0.5])
        #expect(error.attempts == 2)
        #expect(await Self.requests("HEAD", to: transport).isEmpty)
    }

    // MARK: Reporting and cancelling

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theWaitIsReportedWithoutCredentials() async throws {
        var resource = thing()
        resource.url = try #require(URL(string: "https://user:secret@api.example.com/thing?page=2"))
        resource.headers = ["Authorization": "Bearer abc"]
        let (clock, events) = (VirtualClock(), EventLog())
        let transport = StubTransport.down(for: 1, on: clock)
        _ = try await Self.webservice(transport, clock: clock, events: events).load(resource)
        let waits = events.descriptions.filter { $0.contains("waiting") }
        #expect(
            waits == [
                "GET https://REDACTED@api.example.com/thing?page=2: attempt 1 could not connect, waiting up to 30000 ms "
                    + "for the network"
            ])
        #expect(events.events.allSatisfy { !$0.cURLDescription.contains("abc") && !$0.description.contains("secret") })
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(.timeLimit(.minutes(1)))
    func cancellationEndsTheWaitAtOnce() async throws {
        let clock = VirtualClock(parks: true)
        let transport = StubTransport.down(for: .infinity, on: clock)
        let webservice = Self.webservice(transport, clock: clock)
        let load = Task { try await webservice.load(thing()) }
        try await eventually("the policy waits for the network") { clock.sleeps.count == 1 }
        load.cancel()
        await #expect(throws: CancellationError.self) { try await load.value }
        #expect(await transport.requests.count == 1)
    }
}

/// A clock such as an app's test may make: its sleeps end at once, and its time stands still or is the real time.
private struct ClockThatDoesNotWait: Clock {
    private let start = ContinuousClock.now
    private let timeStandsStill: Bool

    init(_ timeStandsStill: Bool) {
        self.timeStandsStill = timeStandsStill
    }

    var now: ContinuousClock.Instant { timeStandsStill ? start : .now }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
    }
}

/// A middleware that sets a header field on every request.
private struct HeaderField: Middleware {
    var name: String
    var value: String

    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        var request = request
        request.setValue(value, forHTTPHeaderField: name)
        return try await next(request, context)
    }
}

/// A middleware that fails every `HEAD` with `error` before it reaches the transport, as an `Authentication` whose
/// provider fails might.
private struct FailingProbe: Middleware {
    var error: any Error & Sendable

    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        if request.method == "HEAD" { throw error }
        return try await next(request, context)
    }
}

extension StubTransport {
    /// A server that can't be connected to until `clock` has passed `seconds`, and then answers `200` with `done`.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    fileprivate static func down(for seconds: TimeInterval, on clock: VirtualClock) -> StubTransport {
        answering(
            .computed { _ in
                guard clock.elapsed >= seconds else { throw URLError(.cannotConnectToHost) }
                return .status(200, body: Data("done".utf8))
            })
    }
}
