import Foundation
import ResourceKit

/// One element of the Episodes service's streams: a counter, as a server-sent event and as a JSON line.
public struct Tick: Decodable, Sendable, Equatable {
    /// The counter, from 1.
    public var n: Int

    /// A tick with counter `n`.
    public init(n: Int) {
        self.n = n
    }
}

extension Tick {
    /// `count` server-sent events of type `tick`, `milliseconds` apart, connecting again up to three times in a row.
    public static func events(at baseURL: URL, count: Int, milliseconds: Int = 0) -> StreamingResource<Tick> {
        var request = Resource<Data>(url: baseURL.appendingPathComponent("streams/events"))
        request.queryItems = [
            URLQueryItem(name: "count", value: "\(count)"), URLQueryItem(name: "ms", value: "\(milliseconds)"),
        ]
        var events = StreamingResource(
            request,
            serverSentEvents: { event in
                try JSONDecoder().decode(Tick.self, from: Data(event.data.utf8))
            })
        events.maxReconnections = 3
        return events
    }

    /// `count` JSON lines.
    public static func lines(at baseURL: URL, count: Int) -> StreamingResource<Tick> {
        var request = Resource<Data>(url: baseURL.appendingPathComponent("streams/lines"))
        request.queryItems = [URLQueryItem(name: "count", value: "\(count)")]
        return StreamingResource(request, jsonLines: JSONDecoder())
    }
}
