import EpisodesService
import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Starts an Episodes server with the fault routes on loopback, runs `body` against it, and stops the server, also
/// when `body` throws.
func withServer(_ body: (URL) async throws -> Void) async throws {
    try await using(EpisodesServer.start(configure: { $0.addFaultRoutes() }), body)
}

/// Runs `body` with `server`'s base URL, and stops the server, also when `body` throws.
func using(_ server: RunningServer, _ body: (URL) async throws -> Void) async throws {
    do {
        try await body(server.baseURL)
        await server.stop()
    } catch {
        await server.stop()
        throw error
    }
}

/// The web service under test: ResourceKit's shared URLSession, as an app gets from `Webservice()`; with the
/// package's `AsyncHTTPClient` trait on (`swift test --traits AsyncHTTPClient`), `AsyncHTTPClientTransport()`, so one
/// suite checks both transports.
let webservice = makeWebservice()

/// A web service with the transport under test (see ``webservice``), a limiter and a cache.
func makeWebservice(maxConcurrentLoads: Int? = nil, cache: ResponseCache? = nil) -> Webservice {
    #if AsyncHTTPClient
        Webservice(transport: AsyncHTTPClientTransport(), maxConcurrentLoads: maxConcurrentLoads, cache: cache)
    #else
        Webservice(maxConcurrentLoads: maxConcurrentLoads, cache: cache)
    #endif
}

extension URL {
    /// This URL with `path`, which may carry a query, appended: `base / "faults/stall?ms=100"`.
    static func / (base: URL, path: String) -> URL {
        URL(string: base.absoluteString + "/" + path) ?? base.appendingPathComponent(path)
    }
}

/// A resource for the raw bytes at `url`.
func bytes(_ url: URL) -> Resource<Data> {
    Resource<Data>(url: url)
}

/// The suites that allocate a lot or measure the process's memory, run one test at a time.
///
/// No test's allocations show in another's measurement; other suites still run beside them.
@Suite(.serialized) enum MemoryHungryTests {}
