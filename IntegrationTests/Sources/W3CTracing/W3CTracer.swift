import Synchronization
import Tracing

/// A tracer for the demo and the integration suite: it propagates W3C trace context, a `traceparent` of
/// `00-<32 hex trace id>-<16 hex span id>-01`, keeps every span that ended, and hands each to `onEnd`.
///
/// It exports nowhere and extracts nothing; an app uses a real tracer, such as swift-otel's.
///
/// ```swift
/// let tracer = W3CTracer { span in print(span) }
/// let webservice = Webservice(middleware: [DistributedTracing(tracer: tracer)])
/// ```
public struct W3CTracer: Tracer {
    /// The spans that ended, shared by the tracer's copies.
    private let finished = Finished()
    /// Receives each span as it ends.
    private let onEnd: (@Sendable (FinishedSpan) -> Void)?

    /// Creates a tracer that hands each span to `onEnd`, if you pass it, as it ends.
    public init(onEnd: (@Sendable (FinishedSpan) -> Void)? = nil) {
        self.onEnd = onEnd
    }

    /// The spans that ended, in the order they did.
    public var finishedSpans: [FinishedSpan] { finished.spans.withLock { $0 } }

    /// The spans that ended, behind a lock.
    private final class Finished: Sendable {
        let spans = Mutex<[FinishedSpan]>([])
    }

    /// Starts a span in the trace of `context`'s span, or in a new trace when it has none.
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> W3CSpan {
        var context = context()
        let parent = context.w3cSpan
        let ids = SpanIDs(
            traceID: parent?.traceID ?? Self.hex(.random(in: 1...UInt64.max)) + Self.hex(.random(in: 0...UInt64.max)),
            spanID: Self.hex(.random(in: 1...UInt64.max)),
            parentSpanID: parent?.spanID)
        context.w3cSpan = ids
        let (finished, onEnd) = (finished, onEnd)
        return W3CSpan(operationName, kind: kind, context: context, ids: ids, start: instant().nanosecondsSinceEpoch) {
            span in
            finished.spans.withLock { $0.append(span) }
            onEnd?(span)
        }
    }

    /// Writes the `traceparent` of `context`'s span, if it has one.
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext,
        into carrier: inout Carrier,
        using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let ids = context.w3cSpan else { return }
        injector.inject(ids.traceparent, forKey: "traceparent", into: &carrier)
    }

    /// Extracts nothing: the demo and the suite only send.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier,
        into context: inout ServiceContext,
        using extractor: Extract
    ) where Extract.Carrier == Carrier {}

    /// Does nothing: every span is handed over as it ends.
    public func forceFlush() {}

    /// `value` as 16 lowercase hexadecimal digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// A span's identity in its trace, as `traceparent` carries it.
public struct SpanIDs: Sendable, Hashable {
    /// 32 hexadecimal digits, the same for every span of the trace.
    public var traceID: String
    /// 16 hexadecimal digits.
    public var spanID: String
    /// The span ID of the parent, or `nil` for the trace's first span.
    public var parentSpanID: String?

    /// The W3C `traceparent` of this span, sampled: `00-<trace ID>-<span ID>-01`.
    public var traceparent: String { "00-\(traceID)-\(spanID)-01" }
}

extension ServiceContext {
    /// The span of ``W3CTracer`` this context belongs to.
    var w3cSpan: SpanIDs? {
        get { self[SpanIDsKey.self] }
        set { self[SpanIDsKey.self] = newValue }
    }
}

/// Where ``W3CTracer`` keeps a span's ``SpanIDs`` in its `ServiceContext`.
private enum SpanIDsKey: ServiceContextKey {
    typealias Value = SpanIDs
}
