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
    private var inFlight: Task<Issued, any Error>?

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
        if let inFlight { return (try await Self.value(of: inFlight), false) }
        let next = (current?.generation ?? 0) + 1
        let fetch = self.fetch
        // The task updates the store itself before it ends, so a waiter that resumes first and is rejected at once
        // finds the credential it was rejected with as the current one, not the fetch it just waited for.
        let task = Task { () throws -> Issued in
            defer { self.inFlight = nil }
            do {
                let issued = (try await fetch(rejected), next)
                (self.current, self.failure) = (issued, nil)
                return issued
            } catch {
                if let current = self.current {
                    self.current = (current.credential, next)
                    self.failure = (next, error)
                }
                throw error
            }
        }
        inFlight = task
        return (try await Self.value(of: task), true)
    }

    /// The value of `task`, or `CancellationError` as soon as the caller is cancelled: the fetch goes on for the
    /// others, but a load whose user went away doesn't wait for a slow provider.
    private static func value(of task: Task<Issued, any Error>) async throws -> Issued {
        let (results, result) = AsyncStream.makeStream(of: Result<Issued, any Error>.self)
        Task { result.yield(await task.result) }
        return try await firstOutcome(of: results, result)
    }
}
