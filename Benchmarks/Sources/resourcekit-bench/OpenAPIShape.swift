import AsyncHTTPClient
import Foundation
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import ResourceKit
import ResourceKitOpenAPI

/// The `openapi` section: the client generated from `openapi.yaml` sending through a
/// `Webservice` with `AsyncHTTPClientTransport`, against the same client over swift-openapi-async-http-client's
/// transport, both on one `HTTPClient`: what ResourceKit costs a generated client.
enum OpenAPIShape {
    static func run(options: Options, server: ServerFigures?, report: Report) async throws {
        try await ClientPair.with("openapi", options: options) { pair in
            try await NetworkShapes.run(pair, options: options, server: server, report: report)
        }
    }

    /// The two generated clients on `client`: small GETs only, as the document describes `small.json` alone.
    static func pair(options: Options, client: HTTPClient) -> ClientPair {
        let library = Client(
            serverURL: options.baseURL,
            transport: Webservice(transport: ResourceKit.AsyncHTTPClientTransport(client: client)))
        let raw = Client(
            serverURL: options.baseURL,
            transport: OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport(configuration: .init(client: client)))
        var pair = ClientPair(
            "OpenAPI", library: "Client(transport: Webservice(transport: AHC))",
            versus: "Client(transport: OpenAPIAsyncHTTPClient) (raw)", target: .atLeast(0.97),
            library: { endpoint in try await load(endpoint, with: library) },
            raw: { endpoint in try await load(endpoint, with: raw) })
        pair.largeBodies = false
        pair.isFast = true
        return pair
    }

    /// Calls `getSmall` and checks the number of items.
    private static func load(_ endpoint: Endpoint, with client: Client) async throws -> Loaded {
        guard endpoint == .small else { throw BenchError("the OpenAPI document describes small.json only") }
        let items = try await client.getSmall().ok.body.json
        guard items.count == Fixtures.smallCount else {
            throw BenchError("small.json: expected \(Fixtures.smallCount) items, got \(items.count)")
        }
        return .generated(items.count)
    }
}
