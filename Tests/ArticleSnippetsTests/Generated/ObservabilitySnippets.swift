// Generated from Sources/ResourceKit/ResourceKit.docc/Observability.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Observability.md:25, block 1
@MainActor private func observabilitySnippet1() async throws {
    let webservice = Webservice(observer: { event in
        if case .retryScheduled = event.kind { log.notice("\(event)") }
    })
    _ = (webservice)
}

// Observability.md:50, block 2
#if Logging
import Logging

@MainActor private func observabilitySnippet2() async throws {
    let webservice = Webservice(middleware: [LoadLogging(logger: Logger(label: "api")), RetryPolicy()])
    // A load with a logger of its own, as AsyncHTTPClient's `execute(_:timeout:logger:)` takes one:
    let episodes = try await withLogger(requestLogger) { _ in try await webservice.load(Episode.all) }
    _ = (webservice, episodes)
}
#endif

// Observability.md:85, block 3
#if Metrics
import Metrics

@MainActor private func observabilitySnippet3() async throws {
    MetricsSystem.bootstrap(PrometheusMetricsFactory())
    let webservice = Webservice(middleware: [LoadMetrics(), RetryPolicy()])
    _ = (webservice)
}
#endif

// Observability.md:122, block 4
#if Tracing
import Tracing

@MainActor private func observabilitySnippet4() async throws {
    let webservice = Webservice(middleware: [RetryPolicy(), authentication, DistributedTracing()])
    let episodes = try await withSpan("refresh episodes") { _ in try await webservice.load(Episode.all) }
    _ = (webservice, episodes)
}
#endif
