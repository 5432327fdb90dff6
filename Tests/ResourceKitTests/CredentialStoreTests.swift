import Testing

@testable import ResourceKit

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
}
