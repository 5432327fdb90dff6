import ResourceKitCore
internal import ResourceKitSupport
/// One event of a `text/event-stream` response, as the HTML standard's server-sent events define it.
///
/// ```swift
/// let events = StreamingResource(Resource<Data>(url: url), serverSentEvents: { $0 })
/// for try await event in try await webservice.load(events) where event.type == "update" { print(event.data) }
/// ```
public struct ServerSentEvent: Sendable {
    /// The event's type: its `event` field, or `"message"`.
    public var type: String
    /// Its `data` fields, joined with line feeds.
    public var data: String
    /// The last event ID the stream set with an `id` field, this event's or an earlier one's; `nil` when none did.
    public var id: String?

    /// Creates an event, for instance to compare with a parsed one in a test.
    public init(type: String = "message", data: String, id: String? = nil) {
        self.type = type
        self.data = data
        self.id = id
    }
}
