import Dispatch
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

/// A web service with a ``LoadLimiter``: how many requests reach the transport at once, and in which order.
///
/// Also what cancelling or failing does to the line. The transport holds every request until the test opens it, so
/// nothing here depends on timing.
@Suite struct LoadLimiterTests {
    private let gate = Gate()

    private func service(limit: Int) throws -> (Webservice, LoadLimiter) {
        let service = Webservice(transport: StubTransport.gated(by: gate), maxConcurrentLoads: limit)
        return (service, try #require(service.limiter))
    }

    /// Starts a load of each name in turn, each once the one before has reached the transport or the line, so the
    /// order of the calls is the order of the names.
    private func load(
        _ names: [String],
        on service: Webservice,
        _ limiter: LoadLimiter
    ) async throws -> [Task<String, any Error>] {
        var tasks: [Task<String, any Error>] = []
        for (index, name) in names.enumerated() {
            tasks.append(Task { try await service.load(Gate.resource(name)) })
            try await eventually("\(name) reached the transport or the line") {
                await gate.started.count + limiter.loadsWaiting == index + 1
            }
        }
        return tasks
    }

    @Test func sendsNoMoreRequestsAtOnceThanTheLimit() async throws {
        let (service, limiter) = try service(limit: 2)
        let names = ["a", "b", "c", "d", "e", "f"]
        let loads = try await load(names, on: service, limiter)
        #expect(await gate.inFlight == 2)
        #expect(limiter.loadsWaiting == 4)
        for name in names {
            await gate.open(name)
        }
        for (load, name) in zip(loads, names) {
            #expect(try await load.value == name)
        }
        #expect(await gate.maxInFlight == 2)
        #expect(limiter.loadsInFlight == 0)
    }

    @Test func waitingLoadsStartInTheOrderTheyWereCalled() async throws {
        let (service, limiter) = try service(limit: 2)
        let names = ["a", "b", "c", "d", "e", "f"]
        let loads = try await load(names, on: service, limiter)
        // Opening the later requests first changes nothing: a load starts only when a place frees up. "a" keeps one
        // place until the end, so the waiting loads pass through the other place one at a time, in turn.
        for name in names.reversed().dropLast() {
            await gate.open(name)
        }
        for load in loads.dropFirst() {
            _ = try await load.value
        }
        await gate.open("a")
        _ = try await loads[0].value
        #expect(await gate.started == names)
    }

    @Test func cancellingAWaitingLoadThrowsAtOnceWithoutSendingItsRequest() async throws {
        let (service, limiter) = try service(limit: 1)
        let loads = try await load(["a", "b", "c"], on: service, limiter)
        let finished = Finished.watching(loads[1])
        loads[1].cancel()
        // "a" still holds the only place: the cancelled load must not need it to end its wait.
        try await eventually("the cancelled load threw") { await finished.result != nil }
        let result = await finished.result
        #expect(throws: CancellationError.self) { try result?.get() }
        #expect(limiter.loadsWaiting == 1)
        await gate.open("a")
        await gate.open("b")
        await gate.open("c")
        #expect(try await loads[2].value == "c")
        #expect(await gate.started == ["a", "c"])
    }

    @Test func cancelledWaiterLeavesTheLineWithoutTakingAPlace() async throws {
        let (service, limiter) = try service(limit: 1)
        let loads = try await load(["a", "b", "c", "d"], on: service, limiter)
        loads[2].cancel()
        try await eventually("c left the line") { limiter.loadsWaiting == 2 }
        for name in ["a", "b", "c", "d"] {
            await gate.open(name)
        }
        #expect(try await loads[0].value == "a")
        #expect(try await loads[1].value == "b")
        await #expect(throws: CancellationError.self) { try await loads[2].value }
        #expect(try await loads[3].value == "d")
        #expect(await gate.started == ["a", "b", "d"])
        #expect(await gate.maxInFlight == 1)
        #expect(limiter.loadsInFlight == 0)
    }

    @Test func failingLoadFreesItsPlace() async throws {
        let (service, limiter) = try service(limit: 1)
        let loads = try await load(["a", "b"], on: service, limiter)
        await gate.open("a", with: .fail(URLError(.notConnectedToInternet)))
        let error = try await #require(throws: WebserviceError.self) { try await loads[0].value }
        #expect((error.underlyingError as? URLError)?.code == .notConnectedToInternet)
        try await eventually("b reached the transport") { await gate.started == ["a", "b"] }
        await gate.open("b")
        #expect(try await loads[1].value == "b")
    }

    @Test func timedOutLoadKeepsItsPlaceUntilItsTransportReturns() async throws {
        // The gate ignores cancellation, as a transport may: "a" times out, but its request is still being sent, so
        // its place stays taken and "b" waits in line until "a"'s transport has really returned.
        let (service, limiter) = try service(limit: 1)
        var timingOut = Gate.resource("a")
        timingOut.timeout = 0.1
        let error = try await #require(throws: WebserviceError.self) { try await service.load(timingOut) }
        #expect(error.reason.isTimedOut, "\(error)")
        try await eventually("a reached the transport") { await gate.started == ["a"] }
        let second = Task { try await service.load(Gate.resource("b")) }
        try await eventually("b reached the transport or the line") {
            await gate.started.count + limiter.loadsWaiting == 2
        }
        #expect(await gate.started == ["a"])
        #expect(limiter.loadsInFlight == 1)
        await gate.open("a")
        try await eventually("b reached the transport") { await gate.started == ["a", "b"] }
        await gate.open("b")
        #expect(try await second.value == "b")
        #expect(await gate.maxInFlight == 1)
        #expect(limiter.loadsInFlight == 0)
    }

    @Test func copiesOfAWebServiceShareTheLimit() async throws {
        let (service, limiter) = try service(limit: 1)
        let copy = service
        let first = Task { try await service.load(Gate.resource("a")) }
        try await eventually("a reached the transport") { await gate.started == ["a"] }
        let second = Task { try await copy.load(Gate.resource("b")) }
        try await eventually("b waits in line") { limiter.loadsWaiting == 1 }
        #expect(await gate.started == ["a"])
        await gate.open("a")
        await gate.open("b")
        #expect(try await first.value == "a")
        #expect(try await second.value == "b")
        #expect(await gate.maxInFlight == 1)
    }

    @Test func parsingHappensAfterTheLoadHasFreedItsPlace() async throws {
        // "a"'s parse blocks until "b"'s request is sent. "b" waits for the only place, which "a" holds until its
        // response arrives: the parse can only see "b" sent if "a" gave its place back before parsing.
        let bSent = DispatchSemaphore(value: 0)
        let service = Webservice(
            transport: StubTransport.answering(
                .computed { request in
                    if request.url.lastPathComponent == "a" {
                        try await gate.pass("a")
                    } else {
                        bSent.signal()
                    }
                    return .status(200)
                }),
            maxConcurrentLoads: 1
        )
        let limiter = try #require(service.limiter)
        let sawBSent = Resource<Bool>(
            url: baseURL.appendingPathComponent("a"),
            parse: { _ in bSent.wait(timeout: .now() + 60) == .success })
        let a = Task { try await service.load(sawBSent) }
        try await eventually("a reached the transport") { await gate.started == ["a"] }
        let b = Task { try await service.load(Gate.resource("b")) }
        try await eventually("b waits in line") { limiter.loadsWaiting == 1 }
        await gate.open("a")
        #expect(try await a.value)
        #expect(try await b.value == "")
    }

    /// The limit sits after the middleware: loads waiting for a credential hold no place, so the provider's own load,
    /// through the same web service, never waits behind them for one.
    @Test(.timeLimit(.minutes(1)), arguments: [1, 3])
    func loadsWaitingForACredentialHoldNoPlaceSoTheProvidersOwnLoadGoesThrough(limit: Int) async throws {
        let transport = StubTransport.behindTokenEndpoint
        let tokenService = Notes<Webservice>()
        let authentication = Authentication(for: [baseURL]) { _ in
            let webservice = try #require(await tokenService.all.first)
            let limiter = try #require(webservice.limiter)
            #expect(limiter.loadsInFlight == 0, "a load waiting for its credential holds no place")
            _ = try await webservice.load(thing(at: "token"))
            return StubTransport.tokenEndpointCredential
        }
        let webservice = Webservice(transport: transport, maxConcurrentLoads: limit, middleware: [authentication])
        await tokenService.append(webservice)
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<limit { group.addTask { try await webservice.load(thing(at: "\(index)")) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: "ok", count: limit))
        #expect(await transport.requests.count == limit + 1)
    }

    /// Starts a task per name that takes a place from `limiter`, each once the one before waits in line.
    private func waiting(_ names: [String], on limiter: LoadLimiter) async throws -> [Task<String, any Error>] {
        var tasks: [Task<String, any Error>] = []
        for name in names {
            let waiting = limiter.loadsWaiting
            tasks.append(
                Task {
                    try await limiter.enter()
                    return name
                })
            try await eventually("\(name) waits in line") { limiter.loadsWaiting == waiting + 1 }
        }
        return tasks
    }

    /// Giving a place back is synchronous and waits for nothing, so a stream's body can do it in its `deinit` on
    /// curl's thread: when `leave()` returns, the first waiting load holds the place.
    @Test func leavingHandsThePlaceToTheFirstWaiterBeforeItReturns() async throws {
        let limiter = LoadLimiter(maxConcurrentLoads: 1)
        try await limiter.enter()
        let waiters = try await waiting(["a", "b"], on: limiter)
        limiter.leave()
        #expect(limiter.loadsWaiting == 1)
        #expect(limiter.loadsInFlight == 1)
        #expect(try await waiters[0].value == "a")
        limiter.leave()
        #expect(limiter.loadsWaiting == 0)
        #expect(try await waiters[1].value == "b")
        limiter.leave()
        #expect(limiter.loadsInFlight == 0)
    }

    /// Places given back from many threads at once each go to exactly one waiter, or back to the pool.
    @Test func placesGivenBackFromManyThreadsAtOnceAreEachGivenOnce() async throws {
        let limiter = LoadLimiter(maxConcurrentLoads: 8)
        for _ in 0..<8 { try await limiter.enter() }
        let names = (0..<8).map { "\($0)" }
        let waiters = try await waiting(names, on: limiter)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in limiter.leave() }
        #expect(limiter.loadsWaiting == 0)
        #expect(limiter.loadsInFlight == 8)
        for (waiter, name) in zip(waiters, names) {
            #expect(try await waiter.value == name)
        }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in limiter.leave() }
        #expect(limiter.loadsInFlight == 0)
    }

    static let limitsBelowOne = [0, -1, Int.min]

    @Test(arguments: limitsBelowOne)
    func limitBelowOneLoadsOneAtATime(limit: Int) async throws {
        #expect(LoadLimiter(maxConcurrentLoads: limit).maxConcurrentLoads == 1)
        let service = Webservice(
            transport: StubTransport.answering(.json("[]")), maxConcurrentLoads: limit)
        try #require(service.limiter?.maxConcurrentLoads == 1)
        #expect(try await service.load(Episode.all).isEmpty)
    }

    @Test func webServiceWithoutALimitHasNoLimiter() {
        #expect(Webservice(transport: StubTransport.answering(.status(200))).limiter == nil)
    }
}
