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

/// Starts an Episodes server with the production and fault routes, runs `body` with its base URL, and stops it, also
/// when `body` throws.
func withProductionServer(_ body: (URL) async throws -> Void) async throws {
    try await using(
        EpisodesServer.start(configure: {
            $0.addProductionRoutes()
            $0.addFaultRoutes()
        }),
        body)
}

/// Starts two Episodes servers with the fault routes, two origins, and runs `body` with their base URLs: for redirects
/// from one origin to another.
func withTwoServers(_ body: (URL, URL) async throws -> Void) async throws {
    try await withServer { base in
        try await withServer { other in try await body(base, other) }
    }
}

/// Runs `body` with the base URL of an Episodes server with the fault routes that is down, refusing connections, and
/// comes back on the same port after `downtime`; stops it once `body` has ended and it is back, also when `body` throws.
///
/// The switch to go down: the server is started to have a port, stopped, and started again on that port, which
/// Hummingbird can bind again at once (it sets `SO_REUSEADDR`). While it is down, a socket bound to the port without
/// listening holds it: connections are refused as before, and a server another test starts meanwhile (nginx picks a
/// port that is free) can't take it.
func withServerDown(for downtime: Duration, _ body: (URL) async throws -> Void) async throws {
    let first = try await EpisodesServer.start(configure: { $0.addFaultRoutes() })
    await first.stop()
    let port = try #require(first.baseURL.port)
    let held = holdPort(port)
    let back = Task {
        try await Task.sleep(for: downtime)
        if let held { close(held) }
        return try await EpisodesServer.start(port: port, configure: { $0.addFaultRoutes() })
    }
    try await run({ try await body(first.baseURL) }, thenCleanUp: { try await back.value.stop() })
}

/// Runs `body` with `server`'s base URL, and stops the server, also when `body` throws.
func using(_ server: RunningServer, _ body: (URL) async throws -> Void) async throws {
    try await run({ try await body(server.baseURL) }, thenCleanUp: { await server.stop() })
}

/// Runs `body`, then `cleanUp`, also when `body` throws.
func run(_ body: () async throws -> Void, thenCleanUp cleanUp: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        try await cleanUp()
        throw error
    }
    try await cleanUp()
}

extension URL {
    /// This URL with `path`, which may carry a query, appended: `base / "faults/stall?ms=100"`.
    static func / (base: URL, path: String) -> URL {
        URL(string: base.absoluteString + "/" + path) ?? base.appendingPathComponent(path)
    }

    /// This URL with `host` in place of its host: `localhost` for a server's `127.0.0.1`, another host to a client.
    func withHost(_ host: String) throws -> URL {
        var components = try #require(URLComponents(url: self, resolvingAgainstBaseURL: false))
        components.host = host
        return try #require(components.url)
    }
}

/// A resource for the raw bytes at `url`.
func bytes(_ url: URL) -> Resource<Data> {
    Resource<Data>(url: url)
}

/// The suites that allocate a lot, measure the process's memory or stream files to and from disk, run one test at a
/// time.
///
/// No test's allocations show in another's measurement. `Scripts/test-all.sh` runs them in a second `swift test`, after
/// the other suites, whose timing-sensitive tests their CPU and disk use would otherwise starve on a 2-core machine.
@Suite(.serialized) enum MemoryHungryTests {}

/// A TCP socket bound to `port` on loopback that doesn't listen, without `SO_REUSEADDR`: connections to the port are
/// refused, and no other socket can bind it until it is closed; `nil` when the port can't be bound.
private func holdPort(_ port: Int) -> Int32? {
    #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard bound == 0 else {
        close(fd)
        return nil
    }
    return fd
}
