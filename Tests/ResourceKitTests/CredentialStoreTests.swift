import ResourceKit
import Synchronization
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

/// Single-flight credentials: many rejections, one refresh.
@Suite struct CredentialStoreTests {
    /// Counts fetches and hands out `token-1`, `token-2`, …, or fails while `failing`.
    private actor Issuer {
        var fetches = 0
        var failing = false

        func next() async throws -> String {
            fetches += 1
            try await Task.sleep(for: .milliseconds(20))  // long enough for every caller to arrive meanwhile
            if failing { throw Refused() }
            return "token-\(fetches)"
        }

        func fail(_ failing: Bool) { self.failing = failing }
    }

    private struct Refused: Error {}

    private static func store(_ issuer: Issuer) -> CredentialStore<String> {
        CredentialStore { _ in try await issuer.next() }
    }

    @Test func manyConcurrentRejectionsCauseOneRefresh() async throws {
        let issuer = Issuer()
        let store = Self.store(issuer)
        let first = try await store.credential()
        #expect(first.credential == "token-1" && first.generation == 1)
        let retried = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await store.refreshed(after: first.generation).credential } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(retried == Array(repeating: "token-2", count: 50))
        #expect(await issuer.fetches == 2)
    }

    @Test func rejectionOfAnOlderCredentialJustRetries() async throws {
        let issuer = Issuer()
        let store = Self.store(issuer)
        let stale = try await store.credential()
        _ = try await store.refreshed(after: stale.generation)
        let retried = try await store.refreshed(after: stale.generation)
        #expect(retried.credential == "token-2" && retried.generation == 2)
        #expect(await issuer.fetches == 2)
    }

    @Test func concurrentFirstLoadsFetchOnce() async throws {
        let issuer = Issuer()
        let store = Self.store(issuer)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let issued = try await store.credential()
                    #expect(issued.credential == "token-1")
                }
            }
            try await group.waitForAll()
        }
        #expect(await issuer.fetches == 1)
    }

    @Test func failedRefreshFailsEveryLoadRejectedBeforeItAndALaterLoadMayTryAgain() async throws {
        let issuer = Issuer()
        let store = Self.store(issuer)
        let first = try await store.credential()
        await issuer.fail(true)
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 {
                group.addTask { (try? await store.refreshed(after: first.generation)) == nil }
            }
            return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(failures == 10)
        #expect(await issuer.fetches == 2)
        await issuer.fail(false)
        await #expect(throws: (any Error).self) { try await store.refreshed(after: first.generation) }
        #expect(await issuer.fetches == 2)
        let later = try await store.credential()
        #expect(later.credential == first.credential)
        let recovered = try await store.refreshed(after: later.generation)
        #expect(recovered.credential == "token-3")
    }

    /// A provider whose first fetch hangs until its task is cancelled, and whose later ones answer `token-<n>`.
    private actor HangingProvider {
        private(set) var fetches = 0
        private(set) var cancelled = 0

        func fetch() async throws -> String {
            fetches += 1
            let number = fetches
            if number == 1 {
                do {
                    try await Task.sleep(for: .seconds(3_600))
                } catch {
                    cancelled += 1
                    throw error
                }
            }
            return "token-\(number)"
        }
    }

    @Test func theFetchIsCancelledWhenEveryCallerLeftAndChangesNothing() async throws {
        let provider = HangingProvider()
        let store = CredentialStore<String> { _ in try await provider.fetch() }
        let callers = (0..<3).map { _ in Task { try await store.credential() } }
        try await eventually("the fetch started") { await provider.fetches == 1 }
        for caller in callers { caller.cancel() }
        for caller in callers { await #expect(throws: CancellationError.self) { try await caller.value } }
        try await eventually("the fetch was cancelled") { await provider.cancelled == 1 }
        // The cancelled fetch is no failure: the next caller fetches anew, as the first generation.
        let next = try await store.credential()
        #expect(next.credential == "token-2" && next.generation == 1)
    }

    // MARK: Set and removed by the app

    /// Hands out `token-<n>` for fetch number n, holding the fetches `held` names at its gate (which ignores
    /// cancellation, as a login screen may), and records the rejected value each fetch was given.
    private actor GatedIssuer {
        let gate = Gate()
        private let held: Set<Int>
        private(set) var rejected: [String?] = []
        private(set) var answered: [Int] = []

        init(holding held: Set<Int>) {
            self.held = held
        }

        func next(rejecting rejected: String?) async throws -> String {
            self.rejected.append(rejected)
            let number = self.rejected.count
            if held.contains(number) { try await gate.pass("\(number)") }
            answered.append(number)
            return "token-\(number)"
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aRemovalDuringARefreshDropsItsAnswerAndItsWaitersFetchAFirstCredential() async throws {
        let issuer = GatedIssuer(holding: [2])
        let store = CredentialStore<String> { try await issuer.next(rejecting: $0) }
        let first = try await store.credential()
        let waiter = Task { try await store.refreshed(after: first.generation).credential }
        try await eventually("the refresh runs") { await issuer.gate.started == ["2"] }
        await store.set(nil)
        try await eventuallyEnded([waiter], "the refresh's waiter went on at once")
        #expect(try await waiter.value == "token-3")
        await issuer.gate.open("2")
        try await eventually("the refresh answered") { await issuer.answered.contains(2) }
        for _ in 0..<100 { await Task.yield() }
        #expect(try await store.credential().credential == "token-3")
        #expect(await issuer.rejected == [nil, "token-1", nil])
    }

    @Test(.timeLimit(.minutes(1)))
    func aCredentialSetWhileTheFirstIsFetchedIsEveryWaitersAtOnce() async throws {
        let issuer = GatedIssuer(holding: [1])
        let store = CredentialStore<String> { try await issuer.next(rejecting: $0) }
        let waiters = (0..<3).map { _ in Task { try await store.credential().credential } }
        try await eventually("the fetch runs") { await issuer.gate.started == ["1"] }
        await store.set("signed-in")
        try await eventuallyEnded(waiters, "the fetch's waiters went on at once")
        for waiter in waiters { #expect(try await waiter.value == "signed-in") }
        await issuer.gate.open("1")
        try await eventually("the fetch answered") { await issuer.answered == [1] }
        for _ in 0..<100 { await Task.yield() }
        #expect(try await store.credential().credential == "signed-in")
        // A rejection of the credential set refreshes it, given it.
        let refreshed = try await store.refreshed(after: try await store.credential().generation)
        #expect(refreshed.credential == "token-2")
        #expect(await issuer.rejected == [nil, "signed-in"])
    }

    /// Refreshes that hold until the test says their credential was removed, or until they are cancelled, and
    /// records those still running then: a refresh of a removed credential that nobody cancelled.
    private final class RemovalWatch: Sendable {
        private let state = Mutex((started: Set<String>(), removed: Set<String>(), late: [String]()))

        func fetch(rejecting rejected: String?) async throws -> String {
            guard let rejected else { return "fresh" }
            state.withLock { _ = $0.started.insert(rejected) }
            while !Task.isCancelled, !state.withLock({ $0.removed.contains(rejected) }) {
                try? await Task.sleep(for: .milliseconds(1))
            }
            try Task.checkCancellation()
            state.withLock { $0.late.append(rejected) }
            return "refreshed"
        }

        func started(_ credential: String) -> Bool { state.withLock { $0.started.contains(credential) } }
        func removed(_ credential: String) { state.withLock { _ = $0.removed.insert(credential) } }
        var late: [String] { state.withLock { $0.late } }
    }

    @Test(.timeLimit(.minutes(1)))
    func aWaiterRacingARemovalNeverRefreshesTheRemovedCredential() async throws {
        let watch = RemovalWatch()
        let store = CredentialStore<String> { try await watch.fetch(rejecting: $0) }
        for round in 0..<1_000 {
            let old = "old-\(round)"
            await store.set(old)
            let generation = try await store.credential().generation
            let refresh = Task { try? await store.refreshed(after: generation) }
            try await eventually("the refresh runs") { watch.started(old) }
            // More rejections of the same credential, which may arrive at the fetches in flight after the removal
            // cancelled them.
            let waiters = (0..<4).map { _ in Task { try? await store.refreshed(after: generation) } }
            // Now before the waiters, now while they run, now after.
            for _ in 0..<round % 16 { await Task.yield() }
            await store.set(nil)
            watch.removed(old)
            _ = await refresh.value
            for waiter in waiters { _ = await waiter.value }
        }
        #expect(watch.late.isEmpty)
    }

    @Test func aRejectionFromBeforeARemovalDoesNotRefreshTheCredentialFetchedAfterIt() async throws {
        let issuer = Issuer()
        let store = Self.store(issuer)
        let before = try await store.credential()
        await store.set(nil)
        let after = try await store.credential()
        #expect(after.credential == "token-2")
        #expect(try await store.refreshed(after: before.generation).credential == "token-2")
        #expect(await issuer.fetches == 2)
    }
}
