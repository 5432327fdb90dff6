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

/// Whether and when a failed load is tried again: pure functions, with no network or clock.
@Suite struct RetryPolicyTests {
    private static let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
    private let policy = RetryPolicy()

    /// How attempt number `attempt` of a `method` request to ``thing(_:at:)`` failed: with a status, its
    /// `Retry-After` if any, or with a transport's failure.
    enum Failure {
        case status(Int, retryAfter: String?)
        case transport(URLError.Code)

        func attempt(_ number: Int = 1, method: String = "GET") -> RetryPolicy.FailedAttempt {
            var context = LoadContext()
            context.attempt = number
            let request = Request(method: method, url: baseURL.appendingPathComponent("thing"))
            switch self {
            case .status(let statusCode, let retryAfter):
                let headers = retryAfter.map { ["Retry-After": $0] } ?? [:]
                return .init(
                    request: request, context: context,
                    outcome: .success(Response(statusCode: statusCode, headers: headers)))
            case .transport(let code):
                return .init(
                    request: request, context: context, outcome: .failure(WebserviceError(.transport(URLError(code)))))
            }
        }
    }

    /// The seconds `policy` waits after `failure`, `nil` when no attempt follows: the whole policy as a pure function.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func delay(
        _ failure: Failure,
        attempt: Int = 1,
        method: String = "GET",
        random: Double = 1,
        policy: RetryPolicy? = nil
    ) -> TimeInterval? {
        let policy = policy ?? self.policy
        let failed = failure.attempt(attempt, method: method)
        guard policy.retries(failed, attempt: attempt) else { return nil }
        return policy.delay(after: failed, attempt: attempt, now: Self.now, random: random)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retryableStatusIsRetried(statusCode: Int) {
        #expect(delay(.status(statusCode, retryAfter: nil)) == 0.5)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [400, 401, 403, 404, 409, 422, 501, 505])
    func otherStatusEndsTheLoad(statusCode: Int) {
        #expect(delay(.status(statusCode, retryAfter: nil)) == nil)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func onlyFailuresALaterAttemptCanCureAreRetried() {
        #expect(delay(.transport(.networkConnectionLost)) != nil)
        #expect(delay(.transport(.timedOut)) != nil)
        #expect(delay(.transport(.cannotConnectToHost)) != nil)
        #expect(delay(.transport(.serverCertificateUntrusted)) == nil)
        #expect(delay(.transport(.badURL)) == nil)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func onlyIdempotentMethodsAreRetriedUnlessAsked() {
        for method in ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"] {
            #expect(delay(.status(503, retryAfter: nil), method: method) != nil)
        }
        #expect(delay(.status(503, retryAfter: nil), method: "POST") == nil)
        #expect(delay(.status(503, retryAfter: nil), method: "PATCH") == nil)
        let everyMethod = RetryPolicy(retriesEveryMethod: true)
        #expect(delay(.status(503, retryAfter: nil), method: "POST", policy: everyMethod) == 0.5)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func delayDoublesWithJitterUpToTheCapAndAttemptsEnd() {
        let policy = RetryPolicy(maxAttempts: 10)
        func timedOut(attempt: Int, random: Double = 1) -> TimeInterval? {
            delay(.transport(.timedOut), attempt: attempt, random: random, policy: policy)
        }
        #expect((1...9).map { timedOut(attempt: $0) } == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
        #expect(timedOut(attempt: 3, random: 0.25) == 0.5)
        #expect(timedOut(attempt: 10) == nil)
        #expect(delay(.transport(.timedOut), attempt: 3) == nil)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func retryAfterIsHonouredOn429And503UpToTheCap() {
        #expect(delay(.status(429, retryAfter: "7"), random: 0) == 7)
        #expect(delay(.status(503, retryAfter: "Wed, 21 Oct 2015 07:28:20 GMT"), random: 0) == 20)
        #expect(delay(.status(503, retryAfter: "3600")) == nil)
        #expect(delay(.status(500, retryAfter: "7"), random: 1) == 0.5)
        #expect(delay(.status(429, retryAfter: "soon"), random: 1) == 0.5)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: [
        ("120", 120.0), (" 0 ", 0), ("Wed, 21 Oct 2015 07:29:00 GMT", 60), ("Wednesday, 21-Oct-15 07:29:00 GMT", 60),
        ("Wed Oct 21 07:29:00 2015", 60), ("Wed, 21 Oct 2015 07:00:00 GMT", 0),
        ("99999999999999999999999", 31_536_000),
    ])
    func retryAfterReadsDeltaSecondsAndEveryHTTPDateFormat(value: String, seconds: Double) {
        #expect(RetryPolicy.retryAfter(value, now: Self.now) == seconds)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: ["", "-5", "1.5", "soon", "Wed, 21 Oct 2015 07:29:00 PST", "2015-10-21T07:29:00Z"])
    func retryAfterRefusesAnythingElse(value: String) {
        #expect(RetryPolicy.retryAfter(value, now: Self.now) == nil)
    }

    // MARK: Loads through the policy, with a stub server and a virtual clock

    /// A web service that retries with `policy`, its waits on `clock` and its jitter fixed at the full delay.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private static func webservice(
        _ transport: StubTransport,
        clock: VirtualClock,
        policy: RetryPolicy = RetryPolicy(),
        events: EventLog? = nil
    ) -> Webservice {
        var policy = policy
        policy.clock = clock
        policy.random = { 1 }
        policy.now = { now }
        return Webservice(transport: transport, middleware: [policy], observer: events?.observer)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func unavailableTwiceThenAnswerLoadsOnTheThirdAttempt() async throws {
        let transport = StubTransport.answering(.sequence([.status(503), .status(503), .json("done")]))
        let (clock, events) = (VirtualClock(), EventLog())
        let value = try await Self.webservice(transport, clock: clock, events: events).load(thing())
        #expect(value == "done")
        #expect(await transport.requests.count == 3)
        #expect(clock.sleeps == [0.5, 1])
        #expect(
            events.descriptions.filter { $0.contains("retrying") } == [
                "GET https://api.example.com/thing: attempt 1 failed, retrying in 500 ms",
                "GET https://api.example.com/thing: attempt 2 failed, retrying in 1000 ms",
            ])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func retryAfterSetsTheWait() async throws {
        let transport = StubTransport.answering(.sequence([.status(429, headers: ["Retry-After": "7"]), .status(200)]))
        let clock = VirtualClock()
        _ = try await Self.webservice(transport, clock: clock).load(thing())
        #expect(clock.sleeps == [7])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theFinalErrorSaysHowManyAttemptsWereMade() async throws {
        let clock = VirtualClock()
        let unavailable = Self.webservice(.answering(.status(503)), clock: clock)
        let error = try await #require(throws: WebserviceError.self) { try await unavailable.load(thing()) }
        #expect(try requireCase(\.unacceptableStatus, of: error).statusCode == 503)
        #expect(error.attempts == 3)
        #expect(error.description.hasSuffix("(3 attempts)"))

        let lost = Self.webservice(.answering(.failure(.networkConnectionLost)), clock: clock)
        let failure = try await #require(throws: WebserviceError.self) { try await lost.load(thing()) }
        #expect((try requireCase(\.transport, of: failure) as? URLError)?.code == .networkConnectionLost)
        #expect(failure.attempts == 3)
        #expect(failure.description.hasSuffix("(3 attempts)"))
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aFailureNoAttemptCanCureEndsTheLoadAtOnce() async throws {
        let transport = StubTransport.answering(.sequence([.status(404), .status(200)]))
        let error = try await #require(throws: WebserviceError.self) {
            try await Self.webservice(transport, clock: VirtualClock()).load(thing())
        }
        #expect(error.attempts == 1)
        #expect(await transport.requests.count == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func postIsRetriedOnlyOnRequest() async throws {
        let post = thing(.post(Data("{}".utf8)))
        let once = StubTransport.answering(.sequence([.status(503), .status(200)]))
        await #expect(throws: WebserviceError.self) {
            try await Self.webservice(once, clock: VirtualClock()).load(post)
        }
        #expect(await once.requests.count == 1)

        let again = StubTransport.answering(.sequence([.status(503), .status(200)]))
        let policy = RetryPolicy(retriesEveryMethod: true)
        _ = try await Self.webservice(again, clock: VirtualClock(), policy: policy).load(post)
        #expect(await again.requests.map(\.bodyBytes) == [Data("{}".utf8), Data("{}".utf8)])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(.timeLimit(.minutes(1)))
    func cancellationDuringABackoffEndsTheLoadAtOnce() async throws {
        let transport = StubTransport.answering(.status(503))
        let clock = VirtualClock(parks: true)
        let webservice = Self.webservice(transport, clock: clock)
        let load = Task { try await webservice.load(thing()) }
        try await eventually("the policy waits") { clock.sleeps.count == 1 }
        load.cancel()
        await #expect(throws: CancellationError.self) { try await load.value }
        #expect(await transport.requests.count == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(.timeLimit(.minutes(1)))
    func theResourceTimeoutBoundsTheWholeLoadIncludingRetries() async throws {
        // The first 503 must be back before the timeout passes, which a loaded machine may take seconds for; a run
        // whose first answer came too late ends with it, as it should, and the next run allows more time.
        for timeout in [2, 6, 18] as [TimeInterval] {
            var resource = thing()
            resource.timeout = timeout
            // A 503 at once, then a server that never answers.
            let stalling = StubTransport.answering(.sequence([.status(503), .json("[]").delayed(by: 600)]))
            let policy = RetryPolicy(baseDelay: 0.001)
            let webservice = Self.webservice(stalling, clock: VirtualClock(), policy: policy)
            let error = try await #require(throws: WebserviceError.self) { try await webservice.load(resource) }
            let sent = await stalling.requests.count
            guard sent >= 2 else { continue }
            #expect(sent == 2)
            #expect(error.reason.isTimedOut, "\(error)")
            return
        }
        Issue.record("the retry was never sent")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aWaitPastTheResourceTimeoutEndsTheLoadWithTheLastAnswer() async throws {
        var resource = thing()
        resource.timeout = 5
        let clock = VirtualClock()
        let transport = StubTransport.answering(
            .sequence([.status(429, headers: ["Retry-After": "30"]), .status(200)]))
        let webservice = Self.webservice(transport, clock: clock)
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(resource) }
        #expect(try requireCase(\.unacceptableStatus, of: error).statusCode == 429)
        #expect(clock.sleeps.isEmpty)
        #expect(await transport.requests.count == 1)
    }

    // MARK: A rule of the app's own

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aRuleOfTheAppsOwnRetriesA409TooOnTopOfTheBuiltInOne() async throws {
        let conflictsToo = RetryPolicy { $0.isTransient || $0.response?.statusCode == 409 }
        let transport = StubTransport.answering(.sequence([.status(409), .status(503), .json("done")]))
        let clock = VirtualClock()
        #expect(try await Self.webservice(transport, clock: clock, policy: conflictsToo).load(thing()) == "done")
        #expect(clock.sleeps == [0.5, 1])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aResourceTheRuleNamesIsNeverRetried() async throws {
        let policy = RetryPolicy { $0.context.name != "checkout" && $0.isTransient }
        let transport = StubTransport.answering(.status(503))
        let webservice = Self.webservice(transport, clock: VirtualClock(), policy: policy)
        var checkout = thing()
        checkout.name = "checkout"
        await #expect(throws: WebserviceError.self) { try await webservice.load(checkout) }
        #expect(await transport.requests.count == 1)
        await #expect(throws: WebserviceError.self) { try await webservice.load(thing()) }
        #expect(await transport.requests.count == 4)
    }

    /// The rule is asked about each failure another attempt may follow, with what the policy knows of it, and never
    /// about a method that may not be repeated or the last attempt: however it answers, those end the load.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theRuleSeesEachFailedAttemptThatAnotherMayFollow() async throws {
        let asked = Mutex<[String]>([])
        let always = RetryPolicy { failed in
            let outcome = failed.response.map { "\($0.statusCode)" } ?? "\(failed.error?.transportErrorCode == .badURL)"
            asked.withLock { $0.append("\(failed.request.method) #\(failed.context.attempt) \(outcome)") }
            return true
        }
        let transport = StubTransport.answering(.sequence([.failure(.badURL), .status(404), .status(422)]))
        let webservice = Self.webservice(transport, clock: VirtualClock(), policy: always)
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(thing()) }
        #expect(error.statusCode == 422 && error.attempts == 3)
        #expect(asked.withLock { $0 } == ["GET #1 true", "GET #2 404"])

        await #expect(throws: WebserviceError.self) { try await webservice.load(thing(.post(Data()))) }
        #expect(asked.withLock { $0.count } == 2)
        #expect(await transport.requests.count == 4)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aStatusTheResourceAcceptsIsNoFailure() async throws {
        let asked = Mutex(0)
        let always = RetryPolicy { _ in
            asked.withLock { $0 += 1 }
            return true
        }
        let transport = StubTransport.answering(.status(503, body: Data("maintenance".utf8)))
        var resource = thing()
        resource.acceptableStatusCodes = 200..<600
        #expect(
            try await Self.webservice(transport, clock: VirtualClock(), policy: always).load(resource) == "maintenance")
        #expect(asked.withLock { $0 } == 0)
        #expect(await transport.requests.count == 1)
    }
}
