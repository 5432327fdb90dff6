import CoreMetrics
import Foundation
import Logging
import MetricsTestKit
import ResourceKit
import Testing
import Tracing
import W3CTracing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A resource's timeout is named the same way every time it passes, whichever of the load's deadline and the
/// transport's own timer fires first: the error, the request's event, the log lines, the metrics and the spans.
@Suite(.timeLimit(.minutes(1))) struct ResourceTimeoutTests {
    /// Whole-second timeouts on a web service that has made loads before, with and without ``RetryPolicy``: the
    /// `URLSession` task's timer is set in whole seconds too, and once fired together with the load's deadline.
    @Test(arguments: TransportKind.allCases, [false, true])
    func aWholeSecondTimeoutIsNamedATimeoutEverywhere(kind: TransportKind, retries: Bool) async throws {
        try await withServer { base in
            let metrics = TestMetrics()
            let lines = RecordingLogHandler.Lines()
            let tracer = W3CTracer()
            let events = Shared<[WebserviceEvent]>([])
            var middleware: [any Middleware] = [
                LoadLogging(logger: .recording(into: lines, level: .debug)), LoadMetrics(factory: metrics),
            ]
            if retries { middleware.append(RetryPolicy(baseDelay: 0.01)) }
            middleware.append(DistributedTracing(tracer: tracer))
            let webservice = kind.webservice(
                middleware: middleware, observer: { event in events.update { $0.append(event) } })
            for _ in 0..<20 { _ = try await webservice.load(bytes(base / "faults/empty")) }
            let warm = (events: events.value.count, lines: lines.all.count, spans: tracer.finishedSpans.count)

            let stalled = {
                var stalled = bytes(base / "faults/stall?ms=30000")
                stalled.timeout = 1
                return stalled
            }()
            let (rounds, loads) = (3, 6)
            for _ in 0..<rounds {
                let errors = await withTaskGroup(of: (any Error)?.self) { group in
                    for _ in 0..<loads {
                        group.addTask {
                            do {
                                _ = try await webservice.load(stalled)
                                return nil
                            } catch { return error }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                for error in errors {
                    #expect((error as? WebserviceError)?.timedOut == true, "\(String(describing: error))")
                }
            }
            let total = rounds * loads
            // The loads don't wait for their cut-off requests to return: each request's event, line, metric and
            // span comes when it has.
            func failed(_ events: [WebserviceEvent]) -> [(any Error)] {
                events.dropFirst(warm.events).compactMap {
                    if case .failed(let error, _) = $0.kind { error } else { nil }
                }
            }
            func failureLines() -> [RecordingLogHandler.Line] {
                lines.all.dropFirst(warm.lines).filter { $0.metadata["error.type"] != nil }
            }
            func failedTimers(_ label: String) -> [TestTimer] {
                metrics.timers(label: label).filter { $0.dimensions.contains { $0.0 == "error.type" } }
            }
            try await waitUntil { failed(events.value).count == total }
            try await waitUntil { tracer.finishedSpans.count - warm.spans == 2 * total }
            // Each observer hears of the failure in turn: the lines and the timers may come just after the event.
            try await waitUntil { failureLines().count >= 2 * total }
            for label in ["http.client.request.duration", "resourcekit.load.duration"] {
                try await waitUntil { failedTimers(label).reduce(0) { $0 + $1.values.count } >= total }
            }

            let requestEvents = failed(events.value)
            #expect(
                requestEvents.allSatisfy { ($0 as? WebserviceError)?.timedOut == true },
                "\(requestEvents.filter { ($0 as? WebserviceError)?.timedOut != true })")
            #expect(!events.value.contains { if case .retryScheduled = $0.kind { true } else { false } })

            let failures = failureLines()
            #expect(failures.count == 2 * total, "a line for each request's failure and for each load's end")
            #expect(failures.allSatisfy { $0.metadata["error.type"] == "timeout" }, "\(failures.map(\.fullText))")

            for label in ["http.client.request.duration", "resourcekit.load.duration"] {
                let failedTimers = failedTimers(label)
                let types = failedTimers.map { timer in timer.dimensions.first { $0.0 == "error.type" }!.1 }
                #expect(types == ["timeout"], "\(label): \(types)")
                #expect(failedTimers.reduce(0) { $0 + $1.values.count } == total, "\(label)")
            }

            let spans = tracer.finishedSpans.dropFirst(warm.spans)
            #expect(spans.allSatisfy { $0.attribute("error.type") == "timeout" }, "\(spans.map(\.operationName))")
        }
    }
}
