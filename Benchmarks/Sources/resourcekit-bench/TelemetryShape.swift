import CoreMetrics
import Logging
import ResourceKit

/// What `LoadMetrics` and `LoadLogging` cost a load with a backend that keeps nothing: swift-metrics' no-op factory,
/// swift-log's no-op handler.
///
/// The in-memory load of `MiddlewareShape.variants(small:options:middleware:)`, with the middleware against the same
/// load without it, where the library's own work is the largest share of a load it can be; counted by callgrind only
/// (`--instructions`).
enum TelemetryShape {
    /// Metrics on with a no-op backend: at most 2 % more instructions (issue 37).
    static let metricsTarget = Target.atLeast(1 / 1.02)

    /// `LoadMetrics` recording into swift-metrics' no-op factory.
    static var metrics: any Middleware { LoadMetrics(factory: NOOPMetricsHandler.instance) }

    /// `LoadLogging` with a logger at `info`, swift-log's default level, whose handler drops every line.
    static var logging: any Middleware {
        LoadLogging(logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
    }
}
