import EpisodesService
import Foundation
import ResourceKit
import Testing

/// Cache policies and RFC 5861 against the real server, and after it has stopped: the answers an app gets offline.
@Suite struct OfflineTests {
    /// What `/faults/cacheable` answers: the number of requests it has served.
    private struct Served: Decodable, Equatable {
        var served: Int
    }

    /// The counting route with `cacheControl`, under `policy`.
    private func cacheable(_ base: URL, _ cacheControl: String, _ policy: CachePolicy = .http) -> Resource<Served> {
        let query = cacheControl.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        var resource = Resource<Served>(get: base / "faults/cacheable?cache-control=\(query)")
        resource.cachePolicy = policy
        return resource
    }

    @Test(arguments: TransportKind.allCases)
    func storedResponsesAnswerAfterTheServerStopped(kind: TransportKind) async throws {
        let server = try await EpisodesServer.start(configure: { $0.addFaultRoutes() })
        let clock = Shared(Date())
        let events = Shared<[WebserviceEvent]>([])
        let service = kind.webservice(
            cache: ResponseCache(byteLimit: 1_000_000, now: { clock.value }),
            observer: { event in events.update { $0.append(event) } })
        let withinError = cacheable(server.baseURL, "max-age=1, stale-if-error=600")
        let withoutError = cacheable(server.baseURL, "max-age=1")
        #expect(try await service.load(withinError) == Served(served: 1))
        #expect(try await service.load(withoutError) == Served(served: 2))
        await server.stop()
        clock.update { $0 += 10 }

        // HTTP's rules: stale-if-error answers; without it the failure is the answer.
        #expect(try await service.load(withinError) == Served(served: 1))
        let error = try await #require(throws: WebserviceError.self) { try await service.load(withoutError) }
        guard case .transport(let underlying as URLError) = error.reason else { throw error }
        #expect(underlying.code == .cannotConnectToHost)
        // The caller's policies answer whatever the age.
        for policy in [CachePolicy.networkElseStored, .storedElseNetwork, .storedOnly] {
            #expect(try await service.load(cacheable(server.baseURL, "max-age=1", policy)) == Served(served: 2))
        }
        let hits = events.value.compactMap { event -> String? in
            guard case .cacheHit(let policy, let staleness) = event.kind else { return nil }
            return "\(policy) \(Int(staleness))"
        }
        #expect(hits == ["http 9", "networkElseStored 9", "storedElseNetwork 9", "storedOnly 9"])
    }

    @Test(arguments: TransportKind.allCases)
    func aPersistentCacheOpenedAnewAnswersAfterTheServerStopped(kind: TransportKind) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("offline-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await EpisodesServer.start(configure: { $0.addFaultRoutes() })
        let resource = cacheable(server.baseURL, "max-age=1", .networkElseStored)
        do {
            let online = kind.webservice(cache: try ResponseCache(directory: directory, byteLimit: 1_000_000))
            #expect(try await online.load(resource) == Served(served: 1))
        }
        await server.stop()
        // The first cache is gone with its web service, as with the app that quit: the directory opens again.
        let cache = try ResponseCache(directory: directory, byteLimit: 1_000_000)
        let offline = kind.webservice(cache: cache)
        #expect(try await offline.load(resource) == Served(served: 1))
        var anyAge = resource
        anyAge.cachePolicy = .storedOnly
        #expect(try await offline.load(anyAge) == Served(served: 1))
        #expect(await cache.count == 1)
    }

    /// A redirect's target is stored without its user information and credential query values (FilesOnDisk): its
    /// host and path are no secret, and a response read back resolves its relative links against them.
    @Test(arguments: TransportKind.allCases)
    func aPersistentCacheHoldsNoCredentialOfARedirectTarget(kind: TransportKind) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("offline-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withServer { base in
            var target = try #require(URLComponents(url: base / "faults/cacheable", resolvingAgainstBaseURL: false))
            (target.user, target.password) = ("user-of-b", "pass-of-b")
            target.queryItems = [
                URLQueryItem(name: "cache-control", value: "max-age=3600"),
                URLQueryItem(name: "access_token", value: "SECRET-t0ken-4242"),
            ]
            let to = try #require(target.string?.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let resource = Resource<Served>(get: base / "faults/redirect?to=\(to)")
            do {
                let cache = try ResponseCache(directory: directory, byteLimit: 1_000_000)
                let online = kind.webservice(cache: cache)
                #expect(try await online.load(resource) == Served(served: 1))
                #expect(await cache.count == 1)
            }

            let parts = ["SECRET-t0ken-4242", "user-of-b", "pass-of-b"]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
                for part in parts {
                    #expect(bytes.range(of: Data(part.utf8)) == nil && !name.contains(part), "\(part) in \(name)")
                }
            }
            let again = kind.webservice(cache: try ResponseCache(directory: directory, byteLimit: 1_000_000))
            #expect(try await again.load(resource) == Served(served: 1))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func staleWhileRevalidateAnswersAtOnceAndStoresTheServersNewAnswer(kind: TransportKind) async throws {
        try await withServer { base in
            let clock = Shared(Date())
            let cache = ResponseCache(byteLimit: 1_000_000, now: { clock.value })
            let service = kind.webservice(cache: cache)
            let resource = cacheable(base, "max-age=1, stale-while-revalidate=600")
            #expect(try await service.load(resource) == Served(served: 1))
            clock.update { $0 += 10 }
            #expect(try await service.load(resource) == Served(served: 1))
            var stored = resource
            stored.cachePolicy = .storedOnly
            try await waitUntil { try await service.load(stored) == Served(served: 2) }
            #expect(try await service.load(resource) == Served(served: 2))
        }
    }
}
