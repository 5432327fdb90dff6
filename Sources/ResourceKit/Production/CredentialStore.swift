/// The current credential, fetched and refreshed single-flight: any number of loads that find it missing or rejected
/// cause one fetch or refresh, and all of them wait for its result.
///
/// Each credential has a generation. A load rejected with an older generation than the current one just retries
/// with the current credential, as a refresh already happened since it was sent; a failed refresh fails every load
/// waiting for it, once, and the next rejection may try again.
actor CredentialStore<Credential: Sendable> {
    /// A credential and its generation, which counts the fetches and refreshes that made it.
    typealias Issued = (credential: Credential, generation: Int)

    private let fetch: @Sendable (_ rejected: Credential?) async throws -> Credential
    private var current: Issued?
    /// The fetch or refresh in flight, which every caller awaits.
    private var inFlight: Task<Issued, any Error>?

    /// Creates a store whose credentials come from `fetch`, given the rejected credential when it refreshes one.
    init(fetch: @escaping @Sendable (_ rejected: Credential?) async throws -> Credential) {
        self.fetch = fetch
    }

    /// The credential to send: the current one, or the one the fetch in flight or a new fetch brings.
    func credential() async throws -> Issued {
        if let current { return current }
        return try await issue(replacing: nil)
    }

    /// A credential to retry with after the server rejected the one of `generation`: the current one when a refresh
    /// already replaced it, otherwise the one refresh (shared with every other caller) brings.
    func refreshed(after generation: Int) async throws -> Issued {
        if let current, current.generation > generation { return current }
        return try await issue(replacing: current?.credential)
    }

    private func issue(replacing rejected: Credential?) async throws -> Issued {
        if let inFlight { return try await inFlight.value }
        let next = (current?.generation ?? 0) + 1
        let fetch = self.fetch
        let task = Task { () throws -> Issued in (try await fetch(rejected), next) }
        inFlight = task
        defer { inFlight = nil }
        let issued = try await task.value
        current = issued
        return issued
    }
}
