import EpisodesService
import Foundation
import ResourceKit
import SwiftTalk
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The production layer, retries, token refresh, revalidation and de-duplication, against the server's
/// `/production/…` routes, which misbehave the way production servers do.
///
/// Every test starts its own server, whose counters start from zero, so the keys in the paths need not differ
/// between tests.
@Suite(.timeLimit(.minutes(1))) struct ProductionLayerTests {
    struct Attempt: Decodable {
        var attempt: Int
    }

    // MARK: - Retries

    @Test(arguments: TransportKind.allCases)
    func rateLimitedLoadWaitsForItsRetryAfterThenSucceeds(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let events = Shared<[WebserviceEvent]>([])
            let retrying = kind.webservice(middleware: [RetryPolicy(baseDelay: 0.01)], observer: events)
            let start = ContinuousClock.now
            let loaded = try await retrying.load(Resource<Attempt>(get: base / "production/retry-after/a?seconds=1"))
            let elapsed = ContinuousClock.now - start
            #expect(loaded.attempt == 2)
            #expect(elapsed >= .milliseconds(900), "Retry-After: 1 was not waited: \(elapsed)")
            #expect(try await count(base / "production/retry-after/a/count") == 2)
            #expect(events.value.map(\.kind.summary) == ["sent", "429", "retry 1 in 1 s", "sent", "200"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func retryAfterBeyondMaxRetryAfterFailsAtOnce(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let retrying = kind.webservice(middleware: [RetryPolicy(baseDelay: 0.01, maxRetryAfter: 60)])
            let start = ContinuousClock.now
            let error = try await #require(throws: WebserviceError.self) {
                try await retrying.load(Resource<Attempt>(get: base / "production/retry-after/a?seconds=120"))
            }
            #expect(ContinuousClock.now - start < .seconds(5))
            #expect(error.statusCode == 429)
            #expect(error.attempts == 1)
            #expect(try await count(base / "production/retry-after/a/count") == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func unavailableServiceIsRetriedUntilItRecovers(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let retrying = kind.webservice(middleware: [RetryPolicy(maxAttempts: 3, baseDelay: 0.01)])
            let loaded = try await retrying.load(Resource<Attempt>(get: base / "production/unavailable/a?failures=2"))
            #expect(loaded.attempt == 3)
            #expect(try await count(base / "production/unavailable/a/count") == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func serviceStillUnavailableAfterMaxAttemptsFailsWithTheLast503(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let retrying = kind.webservice(middleware: [RetryPolicy(maxAttempts: 3, baseDelay: 0.01)])
            let error = try await #require(throws: WebserviceError.self) {
                try await retrying.load(Resource<Attempt>(get: base / "production/unavailable/a?failures=5"))
            }
            #expect(error.statusCode == 503)
            #expect(error.attempts == 3)
            #expect("\(error)".hasSuffix("(3 attempts)"), "\(error)")
            #expect(try await count(base / "production/unavailable/a/count") == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func postIsRetriedOnlyWhenEveryMethodMayBe(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let post: (String) throws -> Resource<Attempt> = { key in
                try Resource<Attempt>(url: base / "production/unavailable/\(key)?failures=2", method: .post(Data()))
            }
            let idempotentOnly = kind.webservice(middleware: [RetryPolicy(baseDelay: 0.01)])
            let error = try await #require(throws: WebserviceError.self) { try await idempotentOnly.load(post("a")) }
            #expect(error.statusCode == 503)
            #expect(error.attempts == 1)
            #expect(try await count(base / "production/unavailable/a/count") == 1)

            let everyMethod = kind.webservice(middleware: [RetryPolicy(baseDelay: 0.01, retriesEveryMethod: true)])
            #expect(try await everyMethod.load(post("b")).attempt == 3)
            #expect(try await count(base / "production/unavailable/b/count") == 3)
        }
    }

    /// The app's rule retries a 409 too and leaves a resource it names alone; the policy waits on the app's clock, on
    /// which a minute's backoff takes no time.
    @Test(arguments: TransportKind.allCases)
    func aRuleOfTheAppsOwnRetriesAConflictOnAClockThatDoesNotWait(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let clock = SkippingClock()
            let policy = RetryPolicy(maxAttempts: 3, baseDelay: 60, clock: clock) { failed in
                failed.context.name != "checkout" && (failed.isTransient || failed.response?.statusCode == 409)
            }
            let retrying = kind.webservice(middleware: [policy])
            let conflicted = Resource<Attempt>(get: base / "production/unavailable/a?failures=2&status=409")
            #expect(try await retrying.load(conflicted).attempt == 3)
            #expect(clock.sleeps.count == 2)

            var checkout = Resource<Attempt>(get: base / "production/unavailable/b")
            checkout.name = "checkout"
            let unavailable = try await #require(throws: WebserviceError.self) { try await retrying.load(checkout) }
            #expect(unavailable.statusCode == 503 && unavailable.attempts == 1)
            #expect(try await count(base / "production/unavailable/b/count") == 1)

            let builtIn = kind.webservice(middleware: [RetryPolicy(clock: clock)])
            let conflict = try await #require(throws: WebserviceError.self) {
                try await builtIn.load(Resource<Attempt>(get: base / "production/unavailable/c?status=409"))
            }
            #expect(conflict.statusCode == 409 && conflict.attempts == 1)
            #expect(clock.sleeps.count == 2)
        }
    }

    // MARK: - Authentication

    @Test(arguments: TransportKind.allCases)
    func expiredTokenIsRefreshedOnceForManyConcurrentLoads(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let tokens = TokenProvider(base: base, webservice: kind.webservice())
            let events = Shared<[WebserviceEvent]>([])
            let authenticated = kind.webservice(middleware: [tokens.authentication], observer: events)
            let protected = Resource<Attempt>(get: base / "production/protected/a")
            #expect(try await concurrently(20) { try await authenticated.load(protected) }.count == 20)
            #expect(try await count(base / "production/token/a/count") == 1)

            _ = try await kind.webservice().load(
                Resource<Data>(url: base / "production/token/a/expire", method: .post(Data())))
            #expect(try await concurrently(20) { try await authenticated.load(protected) }.count == 20)
            #expect(try await count(base / "production/token/a/count") == 2)
            #expect(tokens.asked.value == [nil, "Bearer token-a-1"])
            #expect(events.value.filter { $0.kind.summary == "credential refreshed" }.count == 1)
        }
    }

    /// Also shows that a `Bearer` challenge completes on Linux's `URLSession`, which never completes a `Basic` one.
    @Test(arguments: TransportKind.allCases)
    func credentialRejectedAgainAfterTheRefreshEndsWithThe401(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let asked = Shared<[String?]>([])
            let wrong = Authentication(for: [base]) { rejected in
                asked.update { $0.append(rejected) }
                return "Bearer wrong"
            }
            var protected = Resource<Attempt>(get: base / "production/protected/a")
            protected.timeout = 30  // only so that a hang fails instead of waiting for the suite's limit
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice(middleware: [wrong]).load(protected)
            }
            #expect(error.statusCode == 401)
            #expect(error.response?.value(forHTTPHeaderField: "WWW-Authenticate") == "Bearer")
            #expect(asked.value == [nil, "Bearer wrong"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func failingTokenProviderIsAnAuthenticationError(kind: TransportKind) async throws {
        try await withProductionServer { base in
            struct SignedOut: Error {}
            let failing = Authentication(for: [base]) { _ in throw SignedOut() }
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice(middleware: [failing]).load(
                    Resource<Attempt>(get: base / "production/protected/a"))
            }
            guard case .authentication = error.reason else {
                Issue.record("expected .authentication, got \(error)")
                return
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func credentialIsSentOnlyToItsOwnOrigin(kind: TransportKind) async throws {
        try await withProductionServer { base in
            try await withServer { other in
                let tokens = TokenProvider(base: base, webservice: kind.webservice())
                let authenticated = kind.webservice(middleware: [tokens.authentication])
                // A `try` outside `#expect`: Swift 6.3 infers a closure whose only `try`s are in macros as not throwing.
                let own = try await authenticated.load(headersReceived(by: base))
                #expect(own["authorization"] == "Bearer token-a-1")
                // Another port, and the same server under another host name, are other origins.
                #expect(try await authenticated.load(headersReceived(by: other))["authorization"] == nil)
                let localhost = try base.withHost("localhost")
                #expect(try await authenticated.load(headersReceived(by: localhost))["authorization"] == nil)
                // Nor does a redirect from its own origin to another carry it.
                var redirected = headersReceived(by: base, path: "faults/redirect")
                redirected.queryItems = [URLQueryItem(name: "to", value: (other / "faults/headers").absoluteString)]
                #expect(try await authenticated.load(redirected)["authorization"] == nil)
                #expect(tokens.asked.value == [nil])
            }
        }
    }

    /// A 401 from another origin, which a redirect led to without the credential, refreshes nothing.
    ///
    /// The other origin can't have rejected the credential, which it never got. The same redirect to a 401 on the
    /// credential's own origin refreshes it.
    @Test(arguments: TransportKind.allCases)
    func rejectionByAnotherOriginARedirectLedToRefreshesNothing(kind: TransportKind) async throws {
        try await withTwoServers { base, other in
            let asked = Shared<[String?]>([])
            let authentication = Authentication(for: [base]) { rejected in
                asked.update { $0.append(rejected) }
                return "Bearer tok-SECRET"
            }
            let webservice = kind.webservice(middleware: [authentication])
            let redirected = { (target: String) in
                var redirect = Resource<[String: String]>(get: base / "faults/redirect")
                redirect.queryItems = [URLQueryItem(name: "to", value: target)]
                return redirect
            }
            let elsewhere = try await #require(throws: WebserviceError.self) {
                try await webservice.load(redirected((other / "faults/rejected/401").absoluteString))
            }
            #expect(elsewhere.statusCode == 401)
            let reason = try JSONDecoder().decode([String: String].self, from: try #require(elsewhere.body))["reason"]
            #expect(reason?.hasSuffix("with Authorization none") == true, "the other origin got the credential")
            #expect(asked.value == [nil])

            let own = try await #require(throws: WebserviceError.self) {
                try await webservice.load(redirected("/faults/rejected/401"))
            }
            #expect(own.statusCode == 401)
            #expect(asked.value == [nil, "Bearer tok-SECRET"])
        }
    }

    /// A provider that loads its token through the very web service it serves, under a limit of one load, finishes.
    ///
    /// The loads waiting for the credential hold the one place: the provider's load must not wait for it. The
    /// timeouts make a regression fail in seconds rather than hang until the suite's time limit.
    @Test(arguments: TransportKind.allCases)
    func providerLoadingItsTokenThroughTheSameLimitedWebServiceFinishes(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let service = Shared<Webservice?>(nil)
            let authentication = Authentication(for: [base]) { _ in
                var issue = try Resource<[String: String]>(
                    url: base / "production/token/a?lifetime=60", method: .post(Data()))
                issue.timeout = 10
                return "Bearer " + (try await #require(service.value).load(issue)["token"] ?? "")
            }
            let limited = Webservice(
                transport: kind.transport(), maxConcurrentLoads: 1, middleware: [authentication])
            service.update { $0 = limited }
            var protected = Resource<Attempt>(get: base / "production/protected/a")
            protected.timeout = 10
            let attempts = try await concurrently(3) { [protected] in try await limited.load(protected).attempt }
            #expect(attempts.sorted() == [1, 2, 3])
            #expect(try await count(base / "production/token/a/count") == 1)
        }
    }

    /// An app signs in and out on one web service: the token it sets, through any copy of the middleware, is sent;
    /// once it signs out, no load sends it again, and the closure, which has no credential while signed out, is asked
    /// anew.
    @Test(arguments: TransportKind.allCases)
    func signingInAndOutKeepsTheWebService(kind: TransportKind) async throws {
        try await withProductionServer { base in
            struct SignedOut: Error {}
            let asked = Shared<[String?]>([])
            let authentication = Authentication(for: [base]) { rejected in
                asked.update { $0.append(rejected) }
                throw SignedOut()
            }
            let webservice = kind.webservice(middleware: [authentication])
            let account = Resource<Account>(get: base / "account")
            let signedOut = try await #require(throws: WebserviceError.self) { try await webservice.load(account) }
            #expect(signedOut.underlyingError is SignedOut, "\(signedOut)")

            // The sign-in request needs no credential; the token it returns is set through a copy of the middleware.
            let session = try await kind.webservice().load(
                Resource<[String: String]>(url: base / "account/session", method: .post(Data())))
            let signIn = authentication
            try await signIn.setCredential("Bearer \(try #require(session["token"]))")
            #expect(try await webservice.load(account).name == "Chris")

            // The sign-out request ends the session it carries; then the middleware forgets its token.
            _ = try await webservice.load(Resource<Data>(url: base / "account/session", method: .delete))
            await authentication.removeCredential()
            let signedOutAgain = try await #require(throws: WebserviceError.self) {
                try await webservice.load(account)
            }
            #expect(signedOutAgain.underlyingError is SignedOut, "\(signedOutAgain)")
            #expect(asked.value == [nil, nil])
        }
    }

    // MARK: - Revalidation

    struct Version: Decodable {
        var version: Int
    }

    struct Served: Decodable, Equatable {
        var full: Int
        var notModified: Int
    }

    /// `etag` answers with an `ETag` and `no-cache`, `last-modified` with a `Last-Modified` and `max-age=0`; both
    /// answer a 304 with `max-age=60`.
    @Test(arguments: TransportKind.allCases, ["etag", "last-modified"])
    func staleResponseIsRevalidatedAndServedUntilItChanges(kind: TransportKind, route: String) async throws {
        try await withProductionServer { base in
            let clock = Shared(Date())
            let events = Shared<[WebserviceEvent]>([])
            let cache = ResponseCache(byteLimit: 1_000_000, now: { clock.value })
            let caching = kind.webservice(middleware: [], cache: cache, observer: events)
            let resource = Resource<Version>(get: base / "production/\(route)/a")
            let served = Resource<Served>(get: base / "production/\(route)/a/count")
            let plain = kind.webservice()

            #expect(try await caching.load(resource).version == 1)
            #expect(try await plain.load(served) == Served(full: 1, notModified: 0))
            #expect(try await caching.load(resource).version == 1)  // the stored body, confirmed by a 304
            #expect(try await plain.load(served) == Served(full: 1, notModified: 1))
            #expect(try await caching.load(resource).version == 1)  // fresh for the 304's max-age=60
            #expect(try await plain.load(served) == Served(full: 1, notModified: 1))
            #expect(events.value.map(\.kind.summary) == ["sent", "200", "sent", "304", "revalidated", "cache hit"])

            _ = try await plain.load(Resource<Data>(url: base / "production/\(route)/a/bump", method: .post(Data())))
            clock.update { $0 += 61 }
            #expect(try await caching.load(resource).version == 2)
            #expect(try await plain.load(served) == Served(full: 2, notModified: 1))
            clock.update { $0 += 61 }
            #expect(try await caching.load(resource).version == 2)
            #expect(try await plain.load(served) == Served(full: 2, notModified: 2))
        }
    }

    // MARK: - De-duplication

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // Deduplication's
    @Test(arguments: TransportKind.allCases)
    func identicalConcurrentLoadsShareOneRequest(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let events = Shared<[WebserviceEvent]>([])
            let deduplicating = kind.webservice(middleware: [Deduplication()], observer: events)
            let slow = Resource<Attempt>(get: base / "production/slow/a?milliseconds=2000")
            let attempts = try await concurrently(10) { try await deduplicating.load(slow).attempt }
            #expect(attempts == Array(repeating: 1, count: 10))
            #expect(try await count(base / "production/slow/a/count") == 1)
            #expect(events.value.filter { $0.kind.summary == "sent" }.count == 1)
        }
    }

    /// Two web services with one `Deduplication` value share no request: each transport sends its own.
    ///
    /// One web service has the argument's transport, the other a URLSession transport of its own: one of each, or two
    /// URLSession transports. Their requests are alike byte for byte; the loads through one web service share its
    /// request.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // Deduplication's
    @Test(arguments: TransportKind.allCases)
    func webServicesSharingOneDeduplicationEachSendTheirOwnRequest(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let deduplication = Deduplication()
            let first = kind.webservice(middleware: [deduplication])
            let second = Webservice(
                transport: URLSessionTransport(configuration: .ephemeral), middleware: [deduplication])
            // A User-Agent of the resource's own, which neither transport replaces: the same header fields from both.
            let slow = Resource<Attempt>(
                get: base / "production/slow/a?milliseconds=3000", headers: ["User-Agent": "SwiftTalk/2"])
            async let throughFirst = concurrently(3) { try await first.load(slow).attempt }
            async let throughSecond = concurrently(3) { try await second.load(slow).attempt }
            let (firstAttempts, secondAttempts) = try await (throughFirst, throughSecond)
            #expect(
                Set(firstAttempts).count == 1 && Set(secondAttempts).count == 1, "\(firstAttempts) \(secondAttempts)")
            #expect(Set(firstAttempts + secondAttempts) == [1, 2])
            #expect(try await count(base / "production/slow/a/count") == 2)
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)  // Deduplication's
    @Test(arguments: TransportKind.allCases)
    func cancellingOneSharedLoadLeavesTheOthersRunning(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let deduplicating = kind.webservice(middleware: [Deduplication()])
            // The shared request takes 5 s: the cancelled load returns long before, even on a busy machine.
            let slow = Resource<Attempt>(get: base / "production/slow/a?milliseconds=5000")
            let loads = (0..<10).map { _ in Task { try await deduplicating.load(slow).attempt } }
            try await waitUntil { try await count(base / "production/slow/a/count") == 1 }
            let cancelled = ContinuousClock.now
            loads[0].cancel()
            await #expect(throws: CancellationError.self) { try await loads[0].value }
            #expect(ContinuousClock.now - cancelled < .seconds(4), "the cancelled load waited for the others")
            for load in loads.dropFirst() {
                #expect(try await load.value == 1)
            }
            #expect(try await count(base / "production/slow/a/count") == 1)
        }
    }
}

// MARK: - Waiting for the network

extension ProductionLayerTests {
    /// The policy that retries once, after a short backoff, and, with `waiting`, waits up to 10 s for the network.
    private static func retrying(waiting: Bool) -> [any Middleware] {
        [RetryPolicy(maxAttempts: 2, baseDelay: 0.05, networkWait: waiting ? 10 : nil)]
    }

    @Test(arguments: TransportKind.allCases)
    func aLoadStartedWhileTheServerIsDownWaitsForItAndSucceeds(kind: TransportKind) async throws {
        try await withServerDown(for: .seconds(1)) { base in
            let events = Shared<[WebserviceEvent]>([])
            let webservice = kind.webservice(middleware: Self.retrying(waiting: true), observer: events)
            let start = ContinuousClock.now
            let episodes = try await webservice.load(bytes(base / "episodes"))
            #expect(!episodes.isEmpty)
            #expect(ContinuousClock.now - start >= .milliseconds(900))
            let loads = events.value.filter { $0.method == "GET" }.map(\.kind.summary)
            #expect(loads.filter { $0 == "sent" }.count == 2, "\(loads)")
            #expect(loads.contains("waiting for the network after attempt 1"), "\(loads)")
            #expect(loads.last == "200", "\(loads)")
            #expect(events.value.contains { $0.method == "HEAD" })
        }
    }

    @Test(arguments: TransportKind.allCases)
    func withoutTheWaitTheSameLoadSpendsItsAttemptsWhileTheServerIsDown(kind: TransportKind) async throws {
        try await withServerDown(for: .seconds(1)) { base in
            let webservice = kind.webservice(middleware: Self.retrying(waiting: false))
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(bytes(base / "episodes"))
            }
            #expect(error.attempts == 2)
            guard case .transport = error.reason else {
                Issue.record("Expected a transport failure, got \(error)")
                return
            }
        }
    }
}

// MARK: - Helpers

/// The `{"count": n}` a production route's `…/count` answers.
private func count(_ url: URL) async throws -> Int {
    struct Count: Decodable { var count: Int }
    return try await Webservice().load(Resource<Count>(get: url)).count
}

/// The header fields `server` received, names in lowercase, as its `/faults/headers` answers them; `path` may redirect
/// there.
private func headersReceived(by server: URL, path: String = "faults/headers") -> Resource<[String: String]> {
    Resource(get: server / path)
}

/// Runs `body` `times` times at once; returns the results in no particular order.
private func concurrently<T: Sendable>(_ times: Int, _ body: @escaping @Sendable () async throws -> T) async throws
    -> [T]
{
    try await withThrowingTaskGroup(of: T.self) { group in
        for _ in 0..<times { group.addTask(operation: body) }
        return try await group.reduce(into: []) { $0.append($1) }
    }
}

/// An app's token provider: fetches a bearer token from the server's token route (valid a minute), and records the
/// rejected credential it was asked to replace each time.
private struct TokenProvider: Sendable {
    let base: URL
    let webservice: Webservice
    let asked = Shared<[String?]>([])

    /// The middleware that sends this provider's tokens to `base`'s origin.
    var authentication: Authentication {
        Authentication(for: [base]) { rejected in
            asked.update { $0.append(rejected) }
            let issue = try Resource<[String: String]>(
                url: base / "production/token/a?lifetime=60", method: .post(Data()))
            return "Bearer " + (try await webservice.load(issue)["token"] ?? "")
        }
    }
}

extension TransportKind {
    /// A web service with this transport, `middleware`, `cache`, and an observer that appends to `events`.
    fileprivate func webservice(
        middleware: [any Middleware], cache: ResponseCache? = nil, observer events: Shared<[WebserviceEvent]>? = nil
    ) -> Webservice {
        var observer: (@Sendable (WebserviceEvent) -> Void)?
        if let events {
            observer = { event in events.update { $0.append(event) } }
        }
        return webservice(cache: cache, middleware: middleware, observer: observer)
    }
}

extension WebserviceEvent.Kind {
    /// The event in a few words, to compare sequences of events: `sent`, the status received, `retry 1 in 1 s`.
    fileprivate var summary: String {
        switch self {
        case .sent: "sent"
        case .received(let statusCode, _, _): String(statusCode)
        case .failed: "failed"
        case .retryScheduled(let attempt, let delay): "retry \(attempt) in \(Int(delay)) s"
        case .waitingForNetwork(let attempt, _): "waiting for the network after attempt \(attempt)"
        case .credentialRefreshed: "credential refreshed"
        case .cacheHit: "cache hit"
        case .revalidated: "revalidated"
        }
    }
}
