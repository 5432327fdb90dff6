import ResourceKitCore
internal import ResourceKitSupport

/// The current credential, fetched and refreshed single-flight: any number of loads that find it missing or rejected
/// cause one fetch or refresh, and all of them wait for its result.
///
/// Each credential has a generation. A load rejected with an older generation than the current one just retries
/// with the current credential, as a refresh already happened since it was sent. A failed refresh fails every load
/// waiting for it and every load rejected with the credential it could not replace; a load that starts later may try
/// again.
///
/// The app may set the credential or remove it (``set(_:)``) at any time. That starts an epoch: a fetch or refresh of
/// an earlier one is cancelled and its answer dropped, and the loads that waited for it ask again, as if they had
/// started after.
actor CredentialStore<Credential: Sendable> {
    /// A credential and its generation, which counts the credentials made or set, and the refreshes that failed.
    typealias Issued = (credential: Credential, generation: Int)

    private let fetch: @Sendable (_ rejected: Credential?) async throws -> Credential
    private var current: Issued?
    /// The refresh that failed last, and the generation it gave the rejected credential, until one succeeds.
    private var failure: (generation: Int, error: any Error)?
    /// The last generation given, which never repeats: a load rejected with a credential from before a removal must
    /// not pass for one rejected with a later credential.
    private var generation = 0
    /// How many times the app set or removed the credential; the fetches in flight are keyed by it.
    private var epoch = 0
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

    /// Makes `credential` the current one, or forgets it when `nil`; a fetch or refresh in flight is cancelled, and
    /// the loads waiting for it ask again at once, for `credential` or for a new fetch.
    func set(_ credential: Credential?) async {
        epoch += 1
        generation += 1
        current = credential.map { ($0, generation) }
        failure = nil
        await fetches.cancel(epoch - 1)
    }

    private func issue(replacing rejected: Credential?) async throws -> (issued: Issued, started: Bool) {
        let epoch = self.epoch
        // A caller that is cancelled stops waiting at once; the fetch goes on for the others, and is cancelled when
        // every caller left.
        do {
            let fetched = try await fetches.value(for: epoch) { [self] in
                try await self.fetchCredential(replacing: rejected, in: epoch)
            }
            if epoch == self.epoch { return (fetched.value, fetched.started) }
        } catch {
            guard epoch != self.epoch, !Task.isCancelled else { throw error }
        }
        // The credential was set or removed meanwhile: the fetch's answer, or its failure, is nobody's.
        return (try await credential(), false)
    }

    /// Fetches a credential to replace `rejected` (the first one when `nil`), and makes it the current one unless the
    /// app set or removed the credential since `epoch` began.
    ///
    /// It updates the store itself before it returns, so a waiter that resumes first and is rejected at once finds
    /// the credential it was rejected with as the current one, not the fetch it just waited for. A fetch cancelled
    /// because every caller left changes nothing.
    private func fetchCredential(replacing rejected: Credential?, in epoch: Int) async throws -> Issued {
        // A caller may join after the app's `set` cancelled this epoch's fetch, starting one nobody cancels: the app's
        // closure must not refresh a credential it removed (a refresh token rotated twice may end the new session).
        guard epoch == self.epoch else { throw CancellationError() }
        do {
            let credential = try await fetch(rejected)
            try Task.checkCancellation()
            guard epoch == self.epoch else { throw CancellationError() }
            generation += 1
            let issued = (credential, generation)
            (current, failure) = (issued, nil)
            return issued
        } catch {
            if !Task.isCancelled, epoch == self.epoch, let current {
                generation += 1
                self.current = (current.credential, generation)
                self.failure = (generation, error)
            }
            throw error
        }
    }
}
