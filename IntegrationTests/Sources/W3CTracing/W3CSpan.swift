import Synchronization
import Tracing

/// A span of ``W3CTracer``: it keeps what it is told until it ends, then hands a ``FinishedSpan`` to the tracer's
/// `onEnd`, once.
public final class W3CSpan: Span {
    /// The context that carries the span's ``SpanIDs``, the parent's values included.
    public let context: ServiceContext
    /// The span's identity in its trace.
    public let ids: SpanIDs
    private let kind: SpanKind
    private let start: UInt64
    private let onEnd: @Sendable (FinishedSpan) -> Void
    private let state: Mutex<State>

    /// What the span is told while it runs.
    private struct State {
        var operationName: String
        var attributes: SpanAttributes = [:]
        var status: SpanStatus?
        var errors: [any Error] = []
        var ended = false
    }

    init(
        _ operationName: String,
        kind: SpanKind,
        context: ServiceContext,
        ids: SpanIDs,
        start: UInt64,
        onEnd: @escaping @Sendable (FinishedSpan) -> Void
    ) {
        self.context = context
        self.ids = ids
        self.kind = kind
        self.start = start
        self.onEnd = onEnd
        state = Mutex(State(operationName: operationName))
    }

    /// The span's name, such as `GET`.
    public var operationName: String {
        get { state.withLock { $0.operationName } }
        set { state.withLock { $0.operationName = newValue } }
    }

    /// The attributes set so far.
    public var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set { state.withLock { $0.attributes = newValue } }
    }

    /// Whether the span still takes attributes: until it ends.
    public var isRecording: Bool { state.withLock { !$0.ended } }

    /// Keeps `status`, replacing an earlier one.
    public func setStatus(_ status: SpanStatus) {
        state.withLock { $0.status = status }
    }

    /// Keeps nothing: neither the demo nor the suite reads events.
    public func addEvent(_ event: SpanEvent) {}

    /// Keeps `error` as it is, for the suite to check that it shows no credential.
    public func recordError<Instant: TracerInstant>(
        _ error: any Error,
        attributes: SpanAttributes,
        at instant: @autoclosure () -> Instant
    ) {
        state.withLock { $0.errors.append(error) }
    }

    /// Keeps nothing: neither the demo nor the suite links spans.
    public func addLink(_ link: SpanLink) {}

    /// Ends the span and hands it over; a second call does nothing.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let end = instant().nanosecondsSinceEpoch
        let finished: FinishedSpan? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            return FinishedSpan(
                operationName: state.operationName, kind: kind, ids: ids, attributes: state.attributes,
                status: state.status, errors: state.errors, nanoseconds: end >= start ? end - start : 0)
        }
        if let finished { onEnd(finished) }
    }
}

/// A span as it ended: what the demo prints and the suite checks.
public struct FinishedSpan: Sendable, CustomStringConvertible {
    /// The span's name.
    public var operationName: String
    /// The span's kind, `client` for a request.
    public var kind: SpanKind
    /// The span's identity in its trace.
    public var ids: SpanIDs
    /// The attributes it ended with.
    public var attributes: SpanAttributes
    /// The status it was given, or `nil` if none (unset).
    public var status: SpanStatus?
    /// The errors it recorded.
    public var errors: [any Error]
    /// How long it ran.
    public var nanoseconds: UInt64

    /// The value of the attribute `name`: a string, an integer or another value's description, or `nil` without it.
    public func attribute(_ name: String) -> String? {
        switch attributes.get(name) {
        case .string(let value)?: value
        case .int64(let value)?: String(value)
        case let value?: "\(value)"
        case nil: nil
        }
    }

    /// One line: `GET client span <id> of trace <id>, parent <id>, 3 ms, error: name=value, …`.
    public var description: String {
        var names: [String] = []
        attributes.forEach { name, _ in names.append(name) }
        let fields = names.sorted().map { "\($0)=\(attribute($0) ?? "")" }.joined(separator: ", ")
        let parent = ids.parentSpanID.map { "parent \($0)" } ?? "no parent"
        let failed = status?.code == .error ? ", error" : ""
        return "\(operationName) \(kind) span \(ids.spanID) of trace \(ids.traceID), \(parent), "
            + "\(nanoseconds / 1_000_000) ms\(failed)" + (fields.isEmpty ? "" : ": \(fields)")
    }
}
