import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOPosix
import ResourceKit

/// `Webservice(transport: AsyncHTTPClientTransport(client:))` against the same `HTTPClient` used directly.
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

    static func pair(options: Options, client: HTTPClient) -> ClientPair {
        let urls = PerEndpoint { options.url($0.rawValue).absoluteString }
        let decoder = JSONDecoder.items()
        return ClientPair(
            "AsyncHTTPClient", library: "Webservice(transport: AHC).load",
            with: Webservice(transport: AsyncHTTPClientTransport(client: client)),
            versus: "HTTPClient.execute + collect (raw)", target: 0.97, options: options,
            raw: { endpoint in
                // The request is built per call, as the library builds its own and as a caller would write it.
                let response = try await client.execute(HTTPClientRequest(url: urls[endpoint]), timeout: .seconds(30))
                guard response.status == .ok else {
                    throw BenchError("GET \(endpoint.rawValue) answered \(response.status)")
                }
                let body = try await response.body.collect(upTo: maxBody)
                switch endpoint {
                // NIOFoundationCompat's decode(_:from: ByteBuffer) reads the buffer in place, without a copy.
                case .small, .big: return try check(decoder.decode([Item].self, from: body), endpoint)
                // The library hands back `Data`, so the raw variant turns its buffer into `Data` too.
                case .big5, .huge: return .bytes(Data(buffer: body))
                }
            })
    }
}
