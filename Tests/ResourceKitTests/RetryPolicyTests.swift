import Foundation
import Testing

@testable import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Whether and when a failed load is tried again: pure functions, with no network or clock.
@Suite struct RetryPolicyTests {
    private static let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
    private let policy = RetryPolicy()

    private func delay(
        _ failure: RetryPolicy.Failure,
        attempt: Int = 1,
        method: String = "GET",
        random: Double = 1
    ) -> TimeInterval? {
        policy.delay(after: failure, attempt: attempt, method: method, now: Self.now, random: random)
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retryableStatusIsRetried(statusCode: Int) {
        #expect(delay(.status(statusCode, retryAfter: nil)) == 0.5)
    }

    @Test(arguments: [400, 401, 403, 404, 409, 422, 501, 505])
    func otherStatusEndsTheLoad(statusCode: Int) {
        #expect(delay(.status(statusCode, retryAfter: nil)) == nil)
    }

    @Test func onlyFailuresALaterAttemptCanCureAreRetried() {
        #expect(delay(.transport(.networkConnectionLost)) != nil)
        #expect(delay(.transport(.timedOut)) != nil)
        #expect(delay(.transport(.cannotConnectToHost)) != nil)
        #expect(delay(.transport(.serverCertificateUntrusted)) == nil)
        #expect(delay(.transport(.badURL)) == nil)
    }

    @Test func onlyIdempotentMethodsAreRetriedUnlessAsked() {
        for method in ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"] {
            #expect(delay(.status(503, retryAfter: nil), method: method) != nil)
        }
        #expect(delay(.status(503, retryAfter: nil), method: "POST") == nil)
        #expect(delay(.status(503, retryAfter: nil), method: "PATCH") == nil)
        var everyMethod = policy
        everyMethod.retriesEveryMethod = true
        let post = everyMethod.delay(
            after: .status(503, retryAfter: nil), attempt: 1, method: "POST", now: Self.now, random: 1)
        #expect(post == 0.5)
    }

    @Test func delayDoublesWithJitterUpToTheCapAndAttemptsEnd() {
        var policy = self.policy
        policy.maxAttempts = 10
        func timedOut(attempt: Int, random: Double = 1) -> TimeInterval? {
            policy.delay(after: .transport(.timedOut), attempt: attempt, method: "GET", now: Self.now, random: random)
        }
        #expect((1...9).map { timedOut(attempt: $0) } == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
        #expect(timedOut(attempt: 3, random: 0.25) == 0.5)
        #expect(timedOut(attempt: 10) == nil)
        #expect(delay(.transport(.timedOut), attempt: 3) == nil)
    }

    @Test func retryAfterIsHonouredOn429And503UpToTheCap() {
        #expect(delay(.status(429, retryAfter: "7"), random: 0) == 7)
        #expect(delay(.status(503, retryAfter: "Wed, 21 Oct 2015 07:28:20 GMT"), random: 0) == 20)
        #expect(delay(.status(503, retryAfter: "3600")) == nil)
        #expect(delay(.status(500, retryAfter: "7"), random: 1) == 0.5)
        #expect(delay(.status(429, retryAfter: "soon"), random: 1) == 0.5)
    }

    @Test(arguments: [
        ("120", 120.0), (" 0 ", 0), ("Wed, 21 Oct 2015 07:29:00 GMT", 60), ("Wednesday, 21-Oct-15 07:29:00 GMT", 60),
        ("Wed Oct 21 07:29:00 2015", 60), ("Wed, 21 Oct 2015 07:00:00 GMT", 0),
        ("99999999999999999999999", 31_536_000),
    ])
    func retryAfterReadsDeltaSecondsAndEveryHTTPDateFormat(value: String, seconds: Double) {
        #expect(RetryPolicy.retryAfter(value, now: Self.now) == seconds)
    }

    @Test(arguments: ["", "-5", "1.5", "soon", "Wed, 21 Oct 2015 07:29:00 PST", "2015-10-21T07:29:00Z"])
    func retryAfterRefusesAnythingElse(value: String) {
        #expect(RetryPolicy.retryAfter(value, now: Self.now) == nil)
    }
}
