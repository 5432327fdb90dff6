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
    let server = try await EpisodesServer.start(configure: { $0.addFaultRoutes() })
    do {
        try await body(server.baseURL)
        await server.stop()
    } catch {
        await server.stop()
        throw error
    }
}

/// The default web service: ResourceKit's shared URLSession, as an app gets from `Webservice()`.
let webservice = Webservice()

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
