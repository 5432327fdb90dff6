import CoreMetrics
import Foundation
import Logging
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `LoadMetrics` and `LoadLogging` cost a load with a backend that keeps nothing: swift-metrics' no-op factory,
/// swift-log's no-op handler.
///
/// The in-memory load of `MiddlewareShape`, with the middleware against the same load without it, where the
/// library's own work is the largest share of a load it can be; counted by callgrind only (`--instructions`).
enum TelemetryShape {
    /// Metrics on with a no-op backend: at most 2 % more instructions (issue 37).
    static let metricsTarget = Target.atLeast(1 / 1.02)

    /// One in-memory load of `small` with `middleware`, and one without, each checked.
    static func variants(
        small: Data,
        options: Options,
        middleware: any Middleware
    ) throws -> (library: @Sendable () async throws -> Void, raw: @Sendable () async throws -> Void) {
        let url = options.url(Endpoint.small.rawValue)
        let headers = ["Content-Type": "application/json", "Content-Length": "\(small.count)"]
        guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw BenchError("can't make an HTTPURLResponse for \(url)") }
        let transport = OverheadShape.InMemoryTransport(body: small, response: response)
        let measured = Webservice(transport: transport, middleware: [middleware])
        let direct = Webservice(transport: transport)
        let resource = Resource<[Item]>(get: url, decoder: JSONDecoder.items())
        return (
            { _ = try check(try await measured.load(resource), .small) },
            { _ = try check(try await direct.load(resource), .small) }
        )
    }

    /// `LoadMetrics` recording into swift-metrics' no-op factory.
    static var metrics: any Middleware { LoadMetrics(factory: NOOPMetricsHandler.instance) }

    /// `LoadLogging` with a logger at `info`, swift-log's default level, whose handler drops every line.
    static var logging: any Middleware {
        LoadLogging(logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
    }
}
