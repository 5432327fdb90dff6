import ResourceKitCore
internal import ResourceKitSupport
/// The current credential, fetched and refreshed single-flight: any number of loads that find it missing or rejected
/// cause one fetch or refresh, and all of them wait for its result.
///
/// Each credential has a generation. A load rejected with an older generation than the current one just retries
/// with the current credential, as a refresh already happened since it was sent. A failed refresh fails every load
/// waiting for it and every load rejected with the credential it could not replace; a load that starts later may try
/// again.
actor CredentialStore<Credential: Sendable> {
    /// A credential and its generation, which counts the fetches and refreshes that made it.
    typealias Issued = (credential: Credential, generation: Int)

    private let fetch: @Sendable (_ rejected: Credential?) async throws -> Credential
    private var current: Issued?
    /// The refresh that failed last, and the generation it gave the rejected credential, until one succeeds.
    private var failure: (generation: Int, error: any Error)?
    /// The fetch or refresh in flight, which every caller awaits.
    private let fetches = SharedWork<Int, Issued>()

    /// Creates a store whose credentials come from `fetch`, given the rejected credential when it refreshes one.
    init(fetch: @escaping @Sendable (_ rejected: Credential?) async throws -> Credential) {
        self.fetch = fetch
    }

    /// The credential to send: the current one, or the one the fetch in flight or a new fetch brings.
    func credential() async throws -> Issued {
        if let current { return current }
        return try await issue(replacing: nil).issued
    }

    /// A credential to retry with after the server rejected the one of `generation`: the current one when a refresh
    /// already replaced it, otherwise the one refresh (shared with every other caller) brings.
    func refreshed(after generation: Int) async throws -> Issued {
        try await refresh(after: generation).issued
    }

    /// ``refreshed(after:)``, and whether this call is the one that made the refresh happen.
    func refresh(after generation: Int) async throws -> (issued: Issued, started: Bool) {
        if let current, current.generation > generation {
            // Rejected before a refresh that failed: that refresh's error, rather than a refresh of its own.
            if let failure, failure.generation == current.generation { throw failure.error }
            return (current, false)
        }
        return try await issue(replacing: current?.credential)
    }

    private func issue(replacing rejected: Credential?) async throws -> (issued: Issued, started: Bool) {
        // A caller that is cancelled stops waiting at once; the fetch goes on for the others, and is cancelled when
        // every caller left.
        let fetched = try await fetches.value(for: 0) { [self] in try await self.fetchCredential(replacing: rejected) }
        return (fetched.value, fetched.started)
    }

    /// Fetches a credential to replace `rejected` (the first one when `nil`), and makes it the current one.
    ///
    /// It updates the store itself before it returns, so a waiter that resumes first and is rejected at once finds
    /// the credential it was rejected with as the current one, not the fetch it just waited for. A fetch cancelled
    /// because every caller left changes nothing.
    private func fetchCredential(replacing rejected: Credential?) async throws -> Issued {
        let next = (current?.generation ?? 0) + 1
        do {
            let credential = try await fetch(rejected)
            try Task.checkCancellation()
            let issued = (credential, next)
            (current, failure) = (issued, nil)
            return issued
        } catch {
            if !Task.isCancelled, let current {
                self.current = (current.credential, next)
                self.failure = (next, error)
            }
            throw error
        }
    }
}
