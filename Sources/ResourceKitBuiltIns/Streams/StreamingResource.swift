import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A description of a streaming endpoint: the request, as a ``Resource`` describes it, and how its body divides into
/// elements, each parsed by a synchronous function as it arrives.
///
/// ``Webservice``'s `load(_:)` returns the elements as an `AsyncSequence`; a test calls
/// ``parse(_:)`` with a recorded body. The framings and their rules are in <doc:StreamingResponses>.
///
/// ```swift
/// extension Chat {
///     static func completions(for prompt: Prompt) throws -> StreamingResource<Delta> {
///         StreamingResource(try Resource<Void>(url: completionsURL, method: .post(prompt)), serverSentEvents: { event in
///             try JSONDecoder().decode(Delta.self, from: Data(event.data.utf8))
///         })
///     }
/// }
/// ```
public struct StreamingResource<Element>: Sendable {
    /// The request: its URL, method and body, header fields, query items, acceptable status codes, API error parse,
    /// name, and ``Resource/timeout`` until the response's head arrives; its ``Resource/maxBodySize`` limits each
    /// element (1 MiB when it is `nil`).
    public var request: Resource<Void>
    /// How many times in a row a stream of server-sent events requested with `GET` connects again after its
    /// connection broke, as `EventSource` does: with `Last-Event-ID`, after the server's `retry` time (3 s unless it
    /// sent one, at least 0.1 s, at most 60 s); 3 by default, counted again from 0 when an event arrives; `0` never.
    ///
    /// A stream the server ends is not connected again, nor is any other framing. See
    /// <doc:StreamingResponses#Reconnecting>.
    public var maxReconnections = 3
    /// Waits before connecting again, in seconds; a virtual clock in tests.
    var sleep: @Sendable (TimeInterval) async throws -> Void = {
        try await Task.sleep(nanoseconds: Uptime.nanoseconds($0))
    }
    /// How the body divides into elements.
    let framing: Framer.Kind
    /// Turns one element into the model.
    let parseElement: @Sendable (Framer.Unit) throws -> Element

    private init<A>(
        _ request: Resource<A>,
        framing: Framer.Kind,
        accept: String?,
        parse: @escaping @Sendable (Framer.Unit) throws -> Element
    ) {
        var request = request.map { _ in }
        request.destination = nil
        if let accept, !request.headers.keys.contains(where: { asciiLowercased($0) == "accept" }) {
            request.headers["Accept"] = accept
        }
        self.request = request
        self.framing = framing
        self.parseElement = parse
    }

    /// The largest element, in bytes.
    var elementLimit: Int { request.maxBodySize ?? 1 << 20 }

    /// Parses `body` as a whole streamed body, with no response: what a test calls with a recorded stream.
    ///
    /// ```swift
    /// #expect(try Chat.completions(for: prompt).parse(recording).map(\.text) == ["Hel", "lo"])
    /// ```
    public func parse(_ body: Data) throws -> [Element] {
        var framer = Framer(framing, limit: elementLimit)
        body.withUnsafeBytes { framer.append($0) }
        var elements: [Element] = []
        while let unit = try framer.next() ?? framer.end() {
            elements.append(try element(unit, at: elements.count))
        }
        return elements
    }

    /// The element `unit` parses to, the `index`th of the stream; a parse that throws is the element's failure.
    func element(_ unit: Framer.Unit, at index: Int) throws -> Element {
        do {
            return try parseElement(unit)
        } catch {
            throw DecodingError(index: index, error: error, codingPath: [])
        }
    }
}

extension StreamingResource {
    /// A stream of server-sent events (`text/event-stream`), each turned into an element by `parse`.
    ///
    /// ```swift
    /// let events = StreamingResource(Resource<Data>(url: url), serverSentEvents: { $0 })
    /// ```
    public init<A>(
        _ request: Resource<A>,
        serverSentEvents parse: @escaping @Sendable (ServerSentEvent) throws -> Element
    ) {
        self.init(request, framing: .events, accept: "text/event-stream") { unit in
            guard case .event(let event) = unit else { throw FramingError("Not an event.") }
            return try parse(event)
        }
    }

    /// A stream of JSON Lines (NDJSON): one JSON value a line, decoded by `decoder`; blank lines are skipped.
    ///
    /// ```swift
    /// let log = StreamingResource<LogEntry>(Resource<Data>(url: url), jsonLines: JSONDecoder())
    /// ```
    public init<A>(
        _ request: Resource<A>,
        jsonLines decoder: JSONDecoder = JSONDecoder()
    ) where Element: Decodable & SendableMetatype {
        self.init(request, framing: .lines, accept: "application/jsonl, application/x-ndjson") { unit in
            try decoder.decode(Element.self, from: unit.bytes)
        }
    }

    /// A JSON text sequence (RFC 7464, `application/json-seq`): JSON values each after a record separator, decoded by
    /// `decoder`.
    public init<A>(
        _ request: Resource<A>,
        jsonTextSequence decoder: JSONDecoder = JSONDecoder()
    ) where Element: Decodable & SendableMetatype {
        self.init(request, framing: .records, accept: "application/json-seq") { unit in
            try decoder.decode(Element.self, from: unit.bytes)
        }
    }

    /// The body's bytes as they arrive, a chunk at a time, as the transport hands them over.
    public init<A>(chunksOf request: Resource<A>) where Element == Data {
        self.init(request, framing: .chunks, accept: nil) { unit in unit.bytes }
    }
}

extension Framer.Unit {
    /// The element's bytes; an event's data.
    var bytes: Data {
        switch self {
        case .bytes(let data): data
        case .event(let event): Data(event.data.utf8)
        }
    }
}
