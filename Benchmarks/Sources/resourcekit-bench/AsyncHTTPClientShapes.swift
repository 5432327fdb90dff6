import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOPosix
import ResourceKit

/// The AsyncHTTPClient pairs: the library's overhead over the same `HTTPClient`, and ResourceKit's own client settings
/// against AsyncHTTPClient's defaults.
enum AsyncHTTPClientClients {
    /// The largest body the raw variant collects: above the 50 MB fixture.
    static let maxBody = 100_000_000

    /// The one client of a run, shared by both variants: redirects left to the transport, as its documentation
    /// asks, and up to 64 connections so 64 requests can be in flight.
    static func makeClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        return HTTPClient(eventLoopGroup: .singletonMultiThreadedEventLoopGroup, configuration: configuration)
    }

    /// `Webservice(transport: AsyncHTTPClientTransport(client:))` against the same `HTTPClient` used directly.
    static func pair(options: Options, client: HTTPClient) -> ClientPair {
        var pair = ClientPair(
            "AsyncHTTPClient", library: "Webservice(transport: AHC).load",
            with: Webservice(transport: AsyncHTTPClientTransport(client: client)),
            versus: "HTTPClient.execute + collect (raw)", target: .atLeast(0.97), options: options,
            raw: raw(client, options: options))
        pair.isFast = true
        return pair
    }

    /// `AsyncHTTPClientTransport()`, with ResourceKit's shared client, against `HTTPClient.shared`: small GETs only.
    static func defaultsPair(options: Options) -> ClientPair {
        var pair = ClientPair(
            "AHC defaults", library: "Webservice(transport: AsyncHTTPClientTransport()).load",
            with: Webservice(transport: AsyncHTTPClientTransport()), versus: "HTTPClient.shared (raw)",
            target: .atLeast(0.97), inFlightTarget: .above(1), options: options,
            raw: raw(.shared, options: options))
        pair.largeBodies = false
        pair.isFast = true
        return pair
    }

    /// The raw variant with `client`: the request built per call, as the library builds its own and as a caller
    /// would write it.
    private static func raw(
        _ client: HTTPClient,
        options: Options
    ) -> @Sendable (Endpoint) async throws -> Loaded {
        let urls = PerEndpoint { options.url($0.rawValue).absoluteString }
        let decoder = JSONDecoder.items()
        return { endpoint in
            let response = try await client.execute(HTTPClientRequest(url: urls[endpoint]), timeout: .seconds(30))
            guard response.status == .ok else {
                throw BenchError("GET \(endpoint.rawValue) answered \(response.status)")
            }
            let body = try await response.body.collect(upTo: maxBody)
            switch endpoint {
            // NIOFoundationCompat's decode(_:from: ByteBuffer) reads the buffer in place, without a copy.
            case .small, .big: return try check(decoder.decode([Item].self, from: body), endpoint)
            // The library hands back `Data`, so the raw variant turns its buffer into `Data` too.
            case .big5, .big2, .huge: return .bytes(Data(buffer: body))
            }
        }
    }
}
