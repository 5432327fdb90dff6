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

/// A web service with a ``ResponseCache``: which responses are stored, for how long, and for whom.
///
/// Also what is dropped when the cache is full. The server answers each request with its number ("1", "2", …), so a
/// repeated number is a response served from memory. Time is a task-local clock the test sets; nothing sleeps.
@Suite struct ResponseCacheTests {
    private let server = CountingServer()

    /// A web service whose cache reads the test clock, and whose server answers `status` with `headers`.
    private func service(
        cache: ResponseCache = ResponseCache(byteLimit: 1_000_000, now: { TestClock.now }),
        status: Int = 200,
        headers: [String: String] = ["Cache-Control": "max-age=60"],
        bodyLength: Int = 0,
        middleware: [any Middleware] = []
    ) -> Webservice {
        let server = server
        return Webservice(
            transport: StubTransport.answering(
                .computed { request in
                    let number = await server.answer(request)
                    let body = String(number).padding(
                        toLength: max(bodyLength, String(number).count), withPad: " ", startingAt: 0)
                    return .status(status, headers: headers, body: Data(body.utf8))
                }),
            cache: cache,
            middleware: middleware
        )
    }

    /// The resource for `…/path`, whose model is the server's answer number.
    private func numbered(
        _ path: String = "feed",
        method: HTTPMethod<Data> = .get,
        headers: [String: String] = [:],
        at base: URL = baseURL
    ) -> Resource<String> {
        Resource(url: base.appendingPathComponent(path), method: method, headers: headers) { data in
            String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Loads `resource` at `seconds` after the test clock's start.
    private func load<A>(_ resource: Resource<A>, with service: Webservice, at seconds: TimeInterval = 0)
        async throws -> A
    {
        try await TestClock.$now.withValue(TestClock.start + seconds) { try await service.load(resource) }
    }

    // MARK: Serving

    @Test func freshResponseIsServedWithoutTheTransport() async throws {
        let service = service()
        #expect(try await load(numbered(), with: service) == "1")
        #expect(try await load(numbered(), with: service) == "1")
        #expect(await server.count == 1)
    }

    @Test func cachedResponseIsValidatedAndParsedAgainWithItsStatusAndHeaders() async throws {
        let service = service(status: 203, headers: ["Cache-Control": "max-age=60", "Content-Type": "text/plain"])
        #expect(try await load(numbered(), with: service) == "1")
        // Another resource for the same request: its parse runs on the stored response, and fails.
        let rejecting = numbered().map { _ -> String in throw CocoaError(.coderReadCorrupt) }
        let error = try await #require(throws: WebserviceError.self) { try await load(rejecting, with: service) }
        let response = try requireCase(\.parsing, of: error).response
        #expect(response.statusCode == 203)
        #expect(response.body.data == Data("1".utf8))
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        #expect(response.headers.count == 2)
        #expect(await server.count == 1)
    }

    @Test func copiesOfAWebServiceAndWebServicesGivenTheCacheShareIt() async throws {
        let service = service()
        let copy = service
        let other = Webservice(
            transport: StubTransport.answering(.failure(.notConnectedToInternet)), cache: service.cache)
        #expect(try await load(numbered(), with: service) == "1")
        #expect(try await load(numbered(), with: copy) == "1")
        #expect(try await load(numbered(), with: other) == "1")
        #expect(await server.count == 1)
    }

    @Test func cachedResponseDoesNotWaitForALoadPlace() async throws {
        let gate = Gate()
        let cache = ResponseCache(byteLimit: 1_000_000)
        let service = Webservice(
            transport: StubTransport.answering(
                .computed { request in
                    if request.url.lastPathComponent == "held" { try await gate.pass("held") }
                    return .status(200, headers: ["Cache-Control": "max-age=60"], body: Data("cached".utf8))
                }),
            maxConcurrentLoads: 1,
            cache: cache
        )
        #expect(try await service.load(numbered("feed")) == "cached")
        let held = Task { try await service.load(numbered("held")) }
        try await eventually("the other load holds the only place") { await gate.started == ["held"] }
        let fromCache = Task { try await service.load(numbered("feed")) }
        let finished = Finished.watching(fromCache)
        try await eventually("the cached load finished while the place was taken") { await finished.result != nil }
        await gate.open("held")
        #expect(try await fromCache.value == "cached")
        _ = try await held.value
    }

    // MARK: Freshness

    @Test func responseIsFreshForMaxAgeSecondsAndThenSentAgain() async throws {
        let service = service(headers: ["Cache-Control": "max-age=60"])
        #expect(try await load(numbered(), with: service, at: 0) == "1")
        #expect(try await load(numbered(), with: service, at: 59) == "1")
        #expect(try await load(numbered(), with: service, at: 60) == "2")
        #expect(try await load(numbered(), with: service, at: 119) == "2")
        #expect(await server.count == 2)
    }

    @Test func ageSpentInOtherCachesShortensFreshness() async throws {
        let service = service(headers: ["Cache-Control": "max-age=60", "Age": "50"])
        #expect(try await load(numbered(), with: service, at: 0) == "1")
        #expect(try await load(numbered(), with: service, at: 9) == "1")
        #expect(try await load(numbered(), with: service, at: 10) == "2")
    }

    @Test func staleResponseDoesNotAnswerButStaysStoredWhenTheServerCantBeReached() async throws {
        let cache = ResponseCache(byteLimit: 1_000_000, now: { TestClock.now })
        #expect(try await load(numbered(), with: service(cache: cache)) == "1")
        let offline = Webservice(
            transport: StubTransport.answering(.failure(.notConnectedToInternet)), cache: cache)
        await #expect(throws: WebserviceError.self) { try await load(numbered(), with: offline, at: 60) }
        #expect(await cache.count == 1)
        var anyAge = numbered()
        anyAge.cachePolicy = .storedElseNetwork
        #expect(try await load(anyAge, with: offline, at: 60) == "1")
    }

    // MARK: Revalidation

    /// A server whose answer has the validators `validators` and `Cache-Control: cacheControl`, and that answers 304
    /// with `max-age=60` to a request that sends back the first of them; it keeps the requests it was sent.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func revalidating(
        validators: [String: String] = ["ETag": #""v1""#],
        cacheControl: String = "no-cache",
        events: EventLog? = nil
    ) -> (Webservice, StubTransport) {
        let server = server
        let transport = StubTransport.answering(
            .computed { request in
                let number = await server.answer(request)
                let matches = [("If-None-Match", "ETag"), ("If-Modified-Since", "Last-Modified")].contains {
                    field, validator in
                    validators[validator] != nil && request.value(forHTTPHeaderField: field) == validators[validator]
                }
                if matches {
                    return .status(304, headers: ["Cache-Control": "max-age=60"])
                }
                let headers = validators.merging(["Cache-Control": cacheControl]) { $1 }
                return .status(200, headers: headers, body: Data(String(number).utf8))
            })
        let cache = ResponseCache(byteLimit: 1_000_000, now: { TestClock.now })
        return (Webservice(transport: transport, cache: cache, observer: events?.observer), transport)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aNoCacheResponseWithAnETagIsRevalidatedAndA304ServesTheStoredBody() async throws {
        let events = EventLog()
        let (service, transport) = revalidating(events: events)
        #expect(try await load(numbered(), with: service) == "1")
        #expect(try await load(numbered(), with: service) == "1")
        let sent = await transport.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") }
        #expect(sent == [nil, #""v1""#])
        #expect(events.descriptions.last == "GET https://api.example.com/feed: revalidated, answered from the cache")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func a304RefreshesFreshnessWithItsOwnCacheControl() async throws {
        let (service, transport) = revalidating()
        _ = try await load(numbered(), with: service)
        _ = try await load(numbered(), with: service, at: 1)
        #expect(try await load(numbered(), with: service, at: 60) == "1")
        #expect(await transport.requests.count == 2)
        #expect(try await load(numbered(), with: service, at: 61) == "1")
        #expect(await transport.requests.count == 3)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aStaleResponseWithOnlyLastModifiedIsRevalidatedWithIfModifiedSince() async throws {
        let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
        let (service, transport) = revalidating(validators: ["Last-Modified": lastModified], cacheControl: "max-age=10")
        _ = try await load(numbered(), with: service)
        #expect(try await load(numbered(), with: service, at: 5) == "1")
        #expect(try await load(numbered(), with: service, at: 10) == "1")
        let sent = await transport.requests.map { $0.value(forHTTPHeaderField: "If-Modified-Since") }
        #expect(sent == [nil, lastModified])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aChangedResourceAnswers200AndReplacesTheStoredResponse() async throws {
        let server = server
        // The resource changes with every request: its ETag is the request's number, so no validator ever matches.
        let transport = StubTransport.answering(
            .computed { request in
                let number = await server.answer(request)
                let headers = ["ETag": #""v\#(number)""#, "Cache-Control": "no-cache"]
                return .status(200, headers: headers, body: Data(String(number).utf8))
            })
        let service = Webservice(transport: transport, cache: ResponseCache(byteLimit: 1_000_000))
        #expect(try await load(numbered(), with: service) == "1")
        #expect(try await load(numbered(), with: service) == "2")
        #expect(try await load(numbered(), with: service) == "3")
        let sent = await transport.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") }
        #expect(sent == [nil, #""v1""#, #""v2""#])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aRequestWithItsOwnValidatorsGetsTheServersAnswerAsItIs() async throws {
        let (service, transport) = revalidating()
        _ = try await load(numbered(), with: service)
        var conditional = numbered()
        conditional.headers["If-None-Match"] = #""v1""#
        let error = try await #require(throws: WebserviceError.self) { try await load(conditional, with: service) }
        #expect(try requireCase(\.unacceptableStatus, of: error).statusCode == 304)
        #expect(await transport.requests.count == 2)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aResponseWithoutValidatorsOrMaxAgeIsStoredButSentForAgain() async throws {
        let (service, transport) = revalidating(validators: [:], cacheControl: "no-cache")
        #expect(try await load(numbered(), with: service) == "1")
        #expect(try await load(numbered(), with: service) == "2")
        #expect(await service.cache?.count == 1)
        #expect(await transport.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, nil])
    }

    static let maxAgeSpellings: [(header: String, seconds: TimeInterval)] = [
        ("max-age=30", 30),
        ("Public, MAX-AGE=30", 30),
        ("max-age=\"30\"", 30),
        ("max-age=90, max-age=30", 30),
        ("private,max-age=30,must-revalidate", 30),
    ]

    @Test(arguments: maxAgeSpellings)
    func maxAgeIsReadHoweverItIsSpelled(header: String, seconds: TimeInterval) async throws {
        let service = service(headers: ["Cache-Control": header])
        #expect(try await load(numbered(), with: service, at: 0) == "1")
        #expect(try await load(numbered(), with: service, at: seconds - 1) == "1")
        #expect(try await load(numbered(), with: service, at: seconds) == "2")
    }

    static let neverFreshHeaders: [[String: String]] = [
        [:],
        ["Cache-Control": "public"],
        ["Expires": "Thu, 01 Jan 2099 00:00:00 GMT"],
        ["Cache-Control": "max-age=0"],
        ["Cache-Control": "max-age=-5"],
        ["Cache-Control": "max-age=soon"],
        ["Cache-Control": "max-age=60", "Age": "60"],
        ["Cache-Control": "max-age=60, no-cache"],
        ["Cache-Control": "no-cache=\"Set-Cookie\", max-age=60"],
    ]

    /// Stored for the policies that answer whatever the age (<doc:WorkingOffline>), but never fresh under HTTP's.
    @Test(arguments: neverFreshHeaders)
    func responseWithoutALifetimeIsStoredButNeverAnswersUnderHTTP(headers: [String: String]) async throws {
        let service = service(headers: headers)
        #expect(try await load(numbered(), with: service) == "1")
        #expect(try await load(numbered(), with: service) == "2")
        #expect(await service.cache?.count == 1)
    }

    static let unstorableHeaders: [[String: String]] = [
        ["Cache-Control": "no-store, max-age=60"],
        ["Cache-Control": "max-age=60, no-store,\u{301}"],
        ["Cache-Control": "max-age=60", "Vary": "*"],
    ]

    @Test(arguments: unstorableHeaders)
    func responseThatForbidsStoringIsNotStored(headers: [String: String]) async throws {
        let service = service(headers: headers)
        #expect(try await load(numbered(), with: service) == "1")
        #expect(try await load(numbered(), with: service) == "2")
        #expect(await service.cache?.count == 0)
    }

    @Test(arguments: [(200, "no-store"), (404, "max-age=60")])
    func newerResponseThatMayNotBeStoredRemovesTheStoredOne(status: Int, cacheControl: String) async throws {
        let cache = ResponseCache(byteLimit: 1_000_000, now: { TestClock.now })
        #expect(try await load(numbered(), with: service(cache: cache)) == "1")
        let refresh = numbered(headers: ["Cache-Control": "no-cache"])
        _ = try? await load(
            refresh, with: service(cache: cache, status: status, headers: ["Cache-Control": cacheControl]))
        #expect(await cache.count == 0)
        #expect(try await load(numbered(), with: service(cache: cache)) == "3")
    }

    // MARK: What is stored

    @Test(arguments: [404, 500, 503])
    func unsuccessfulResponsesAreNotStored(status: Int) async throws {
        let service = service(status: status)
        for _ in 0..<2 {
            await #expect(throws: WebserviceError.self) { try await load(numbered(), with: service) }
        }
        #expect(await server.count == 2)
    }

    static let unsafeMethods: [HTTPMethod<Data>] = [.post(Data()), .put(Data()), .patch(Data()), .delete]

    @Test(arguments: unsafeMethods)
    func onlyGETResponsesAreStored(method: HTTPMethod<Data>) async throws {
        let service = service()
        #expect(try await load(numbered(method: method), with: service) == "1")
        #expect(try await load(numbered(method: method), with: service) == "2")
    }

    @Test(arguments: unsafeMethods)
    func successfulChangeDropsTheResponsesStoredForItsURL(method: HTTPMethod<Data>) async throws {
        let service = service()
        let mine = ["Authorization": "Bearer mine"]
        #expect(try await load(numbered("feed"), with: service) == "1")
        #expect(try await load(numbered("feed", headers: mine), with: service) == "2")
        #expect(try await load(numbered("other"), with: service) == "3")
        #expect(try await load(numbered("feed", method: method), with: service) == "4")
        #expect(try await load(numbered("feed"), with: service) == "5")
        #expect(try await load(numbered("feed", headers: mine), with: service) == "6")
        #expect(try await load(numbered("other"), with: service) == "3")
    }

    @Test func aHEADKeepsTheStoredResponse() async throws {
        let cache = ResponseCache(byteLimit: 1_000_000, now: { TestClock.now })
        #expect(try await load(numbered(), with: service(cache: cache)) == "1")
        // As the retry policy sends its probe for the network.
        #expect(try await load(numbered(), with: service(cache: cache, middleware: [AsHEAD()])) == "2")
        #expect(try await load(numbered(), with: service(cache: cache)) == "1")
    }

    @Test func failedChangeKeepsTheStoredResponse() async throws {
        let cache = ResponseCache(byteLimit: 1_000_000, now: { TestClock.now })
        #expect(try await load(numbered(), with: service(cache: cache)) == "1")
        let failing = service(cache: cache, status: 409)
        await #expect(throws: WebserviceError.self) { try await load(numbered(method: .delete), with: failing) }
        #expect(try await load(numbered(), with: service(cache: cache)) == "1")
    }

    // MARK: Who it is served to

    @Test func requestsWithDifferentCredentialsNeverShareAResponse() async throws {
        let service = service()
        let alice = numbered(headers: ["Authorization": "Bearer alice"])
        let bob = numbered(headers: ["Authorization": "Bearer bob"])
        #expect(try await load(alice, with: service) == "1")
        #expect(try await load(bob, with: service) == "2")
        #expect(try await load(numbered(), with: service) == "3")
        #expect(try await load(alice, with: service) == "1")
        #expect(try await load(bob, with: service) == "2")
        #expect(await server.count == 3)
    }

    /// `"caf\u{E9}" == "cafe\u{301}"` for Swift, but they are different bytes, and so different credentials.
    @Test func credentialsThatAreEqualStringsButDifferentBytesDontShareAResponse() async throws {
        let service = service()
        #expect(try await load(numbered(headers: ["Authorization": "Bearer caf\u{E9}"]), with: service) == "1")
        #expect(try await load(numbered(headers: ["Authorization": "Bearer cafe\u{301}"]), with: service) == "2")
    }

    @Test func headerNamesAreMatchedWhateverTheirCase() async throws {
        let service = service()
        #expect(try await load(numbered(headers: ["Authorization": "Bearer alice"]), with: service) == "1")
        #expect(try await load(numbered(headers: ["authorization": "Bearer alice"]), with: service) == "1")
        #expect(try await load(numbered(headers: ["authorization": "Bearer ALICE"]), with: service) == "2")
    }

    @Test func requestAskingForNoCacheIsSentAndRefreshesTheStoredResponse() async throws {
        let service = service()
        #expect(try await load(numbered(), with: service) == "1")
        #expect(try await load(numbered(headers: ["Cache-Control": "no-cache"]), with: service) == "2")
        #expect(try await load(numbered(), with: service) == "2")
    }

    @Test func requestAskingForNoStoreNeitherReadsNorFillsTheCache() async throws {
        let service = service()
        let noStore = numbered(headers: ["Cache-Control": "no-store"])
        #expect(try await load(noStore, with: service) == "1")
        #expect(try await load(numbered(), with: service) == "2")
        #expect(try await load(noStore, with: service) == "3")
        #expect(try await load(numbered(), with: service) == "2")
    }

    // MARK: Size

    @Test func leastRecentlyUsedResponseIsDroppedWhenTheCacheIsFull() async throws {
        // Each response takes about 350 bytes: room for two.
        let cache = ResponseCache(byteLimit: 800, now: { TestClock.now })
        let service = service(cache: cache, bodyLength: 300)
        #expect(try await load(numbered("a"), with: service) == "1")
        #expect(try await load(numbered("b"), with: service) == "2")
        #expect(try await load(numbered("a"), with: service) == "1")
        #expect(try await load(numbered("c"), with: service) == "3")
        #expect(try await load(numbered("a"), with: service) == "1")
        #expect(try await load(numbered("b"), with: service) == "4")
        #expect(await cache.count == 2)
        #expect(await cache.byteCount <= 800)
    }

    @Test func responsesAreDroppedInTheOrderTheyWereLastUsed() async throws {
        // Each small response takes about 350 bytes: room for four. The large one takes the room of two.
        let cache = ResponseCache(byteLimit: 1_450, now: { TestClock.now })
        let small = service(cache: cache, bodyLength: 300)
        for (path, number) in zip(["a", "b", "c", "d"], ["1", "2", "3", "4"]) {
            #expect(try await load(numbered(path), with: small) == number)
        }
        #expect(try await load(numbered("c"), with: small) == "3")
        #expect(try await load(numbered("a"), with: small) == "1")
        // A response that replaces the stored one counts as used too.
        #expect(try await load(numbered("d", headers: ["Cache-Control": "no-cache"]), with: small) == "5")
        // Least recently used first: b, c, a, d. The large response makes room by dropping b and c.
        #expect(try await load(numbered("large"), with: service(cache: cache, bodyLength: 650)) == "6")
        #expect(await cache.count == 3)
        #expect(try await load(numbered("a"), with: small) == "1")
        #expect(try await load(numbered("d"), with: small) == "5")
        #expect(try await load(numbered("large"), with: small) == "6")
        #expect(try await load(numbered("b"), with: small) == "7")
        #expect(try await load(numbered("c"), with: small) == "8")
    }

    @Test func responseLargerThanTheLimitIsNotStoredAndDropsNothing() async throws {
        let cache = ResponseCache(byteLimit: 800, now: { TestClock.now })
        let small = service(cache: cache, bodyLength: 300)
        let large = service(cache: cache, bodyLength: 801)
        #expect(try await load(numbered("small"), with: small) == "1")
        #expect(try await load(numbered("large"), with: large) == "2")
        #expect(try await load(numbered("large"), with: large) == "3")
        #expect(try await load(numbered("small"), with: small) == "1")
        #expect(await cache.count == 1)
    }

    @Test func byteLimitBelowZeroStoresNothing() async throws {
        let cache = ResponseCache(byteLimit: -1)
        #expect(cache.byteLimit == 0)
        let service = service(cache: cache)
        #expect(try await load(numbered(), with: service) == "1")
        #expect(try await load(numbered(), with: service) == "2")
        #expect(await cache.count == 0)
    }

    @Test func removeAllEmptiesTheCache() async throws {
        let cache = ResponseCache(byteLimit: 1_000_000, now: { TestClock.now })
        let service = service(cache: cache)
        #expect(try await load(numbered("a"), with: service) == "1")
        #expect(try await load(numbered("b"), with: service) == "2")
        #expect(await cache.count == 2)
        #expect(await cache.byteCount > 0)
        try await cache.removeAll()
        #expect(await cache.count == 0)
        #expect(await cache.byteCount == 0)
        #expect(try await load(numbered("a"), with: service) == "3")
    }
}

/// The time the cache sees: set per load with `TestClock.$now.withValue(…)`.
private enum TestClock {
    static let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
    @TaskLocal static var now = start
}

/// Numbers the requests it answers.
actor CountingServer {
    private(set) var count = 0

    func answer(_ request: Request) -> Int {
        count += 1
        return count
    }
}

/// Sends every request as a `HEAD`.
private struct AsHEAD: Middleware {
    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        var request = request
        request.method = "HEAD"
        return try await next(request, context)
    }
}
