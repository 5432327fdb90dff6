import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The web service's concurrency limit and response cache, against the real server.
@Suite(.timeLimit(.minutes(1))) struct LimitAndCacheTests {
    struct Served: Decodable {
        var served: Int
    }

    struct Concurrency: Decodable {
        var mostInFlight: Int
    }

    @Test(arguments: TransportKind.allCases)
    func serverNeverSeesMoreRequestsAtOnceThanTheLimit(kind: TransportKind) async throws {
        try await withServer { base in
            let limited = kind.webservice(maxConcurrentLoads: 3)
            let resource = Resource<Concurrency>(get: base / "faults/concurrent?ms=100")
            let observed = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await limited.load(resource).mostInFlight }
                }
                return try await group.reduce(0, max)
            }
            #expect((1...3).contains(observed))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func withoutALimitTheServerSeesTheLoadsTogether(kind: TransportKind) async throws {
        try await withServer { base in
            let unlimited = kind.webservice()
            // Each held 2 s, so that all six overlap even on a busy machine.
            let resource = Resource<Concurrency>(get: base / "faults/concurrent?ms=2000")
            let observed = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await unlimited.load(resource).mostInFlight }
                }
                return try await group.reduce(0, max)
            }
            #expect(observed > 3)  // the control for the test above: the server can see more than three at once
        }
    }

    @Test(arguments: TransportKind.allCases)
    func freshResponseIsServedFromTheCacheWithoutAskingTheServer(kind: TransportKind) async throws {
        try await withServer { base in
            let cache = ResponseCache(byteLimit: 1_000_000)
            let caching = kind.webservice(cache: cache)
            let resource = Resource<Served>(get: base / "faults/cacheable")
            let first = try await caching.load(resource).served
            let second = try await caching.load(resource).served
            #expect(second == first)
            // The server saw only one of the two.
            #expect(try await kind.webservice().load(resource).served == first + 1)
            #expect(await cache.count == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func noStoreResponseIsAskedForEveryTime(kind: TransportKind) async throws {
        try await withServer { base in
            let caching = kind.webservice(cache: ResponseCache(byteLimit: 1_000_000))
            var resource = Resource<Served>(get: base / "faults/cacheable")
            resource.queryItems = [URLQueryItem(name: "cache-control", value: "no-store, max-age=60")]
            let first = try await caching.load(resource).served
            let second = try await caching.load(resource).served
            #expect(second == first + 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func differentCredentialsNeverShareACachedResponse(kind: TransportKind) async throws {
        try await withServer { base in
            let caching = kind.webservice(cache: ResponseCache(byteLimit: 1_000_000))
            let alice = Resource<Served>(get: base / "faults/cacheable", headers: ["Authorization": "Bearer alice"])
            let bob = Resource<Served>(get: base / "faults/cacheable", headers: ["Authorization": "Bearer bob"])
            let forAlice = try await caching.load(alice).served
            let forBob = try await caching.load(bob).served
            #expect(forBob == forAlice + 1)
        }
    }

    /// A `URLSession` made from a configuration, or given, whose `httpAdditionalHeaders` say `Authorization`.
    /// (URLSession only: `AsyncHTTPClientTransport` adds no configured header fields.)
    enum ConfiguredSession: String, CaseIterable {
        case configuration, session

        func webservice(authorization: String, cache: ResponseCache) -> Webservice {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["Authorization": authorization]
            switch self {
            case .configuration: return .urlSession(configuration, cache: cache)
            case .session:
                return Webservice(
                    transport: URLSessionTransport(session: URLSession(configuration: configuration)), cache: cache)
            }
        }
    }

    @Test(arguments: ConfiguredSession.allCases)
    func credentialsASessionAddsNeverShareACachedResponse(_ session: ConfiguredSession) async throws {
        try await withServer { base in
            let cache = ResponseCache(byteLimit: 1_000_000)
            let alice = session.webservice(authorization: "Bearer alice", cache: cache)
            let bob = session.webservice(authorization: "Bearer bob", cache: cache)
            let resource = Resource<Served>(get: base / "faults/cacheable")
            let forAlice = try await alice.load(resource).served
            #expect(try await bob.load(resource).served == forAlice + 1)
            #expect(try await alice.load(resource).served == forAlice)
            #expect(await cache.count == 2)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func fileURLLoadsOnlyThroughAFileTransport(kind: TransportKind) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("episodes-\(UUID().uuidString).json")
        try Data(#"{"served": 7}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // The network transport refuses it: a file URL from a server's response never reads a local file.
        let error = try await #require(throws: WebserviceError.self) {
            try await kind.webservice().load(Resource<Served>(get: file))
        }
        #expect(error.urlError?.code == .unsupportedURL)
        #expect(try await Webservice(transport: FileTransport()).load(Resource<Served>(get: file)).served == 7)
    }
}
