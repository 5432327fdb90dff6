import Foundation
import ResourceKit
import ResourceKitTesting
import Synchronization
import Testing
import Tracing
import W3CTracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A pipeline its load abandoned at the deadline: it starts no load span after the load ended.
extension TracingTests {
    /// A W3C tracer that also counts the spans it starts.
    struct CountingTracer: Tracer {
        final class Counts: Sendable { let started = Mutex<[String]>([]) }
        let inner = W3CTracer()
        let counts = Counts()

        func startSpan<Instant: TracerInstant>(
            _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
            at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
        ) -> W3CSpan {
            counts.started.withLock { $0.append("\(operationName)/\(kind)") }
            return inner.startSpan(
                operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID,
                line: line)
        }
        func inject<Carrier, Inject: Injector>(
            _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
        ) where Inject.Carrier == Carrier { inner.inject(context, into: &carrier, using: injector) }
        func extract<Carrier, Extract: Extractor>(
            _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
        ) where Extract.Carrier == Carrier {}
        func forceFlush() {}
    }

    /// A middleware whose work (say, a token fetch) doesn't stop when the load is cancelled.
    struct Uncancellable: Middleware {
        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            await uncancellablePause(0.3)
            return try await next(request, context)
        }
    }

    struct OK: WholeTransport {
        func answer(_ request: Request) async throws -> (Data, URLResponse) {
            (Data("{}".utf8), HTTPURLResponse(url: request.url, statusCode: 200, httpVersion: nil, headerFields: [:])!)
        }
    }

    /// A load that times out before its pipeline reaches DistributedTracing: the abandoned pipeline starts no load
    /// span after the load ended, and every span started ends.
    @Test func noLoadSpanStartsAfterTheLoadTimedOut() async throws {
        let tracer = CountingTracer()
        let webservice = Webservice(
            transport: OK(), middleware: [Uncancellable(), DistributedTracing(tracer: tracer)])
        var resource = Resource<Data>(url: URL(string: "https://api.example.com/x")!)
        resource.timeout = 0.05
        await #expect(throws: (any Error).self) { try await webservice.load(resource) }
        try await Task.sleep(for: .milliseconds(800))
        let started = tracer.counts.started.withLock { $0 }
        let finished = tracer.inner.finishedSpans.map { "\($0.operationName)/\($0.kind)" }
        #expect(!started.contains("GET/internal"), "\(started)")
        #expect(started.count == finished.count, "every span started ends: started \(started), ended \(finished)")
    }
}
