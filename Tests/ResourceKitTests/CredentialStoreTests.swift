import ResourceKit
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
}
