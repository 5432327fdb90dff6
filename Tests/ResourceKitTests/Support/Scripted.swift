import Foundation
import ResourceKit
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The resource the production-layer tests load: `GET …/thing`, its body as text.
func thing(_ method: HTTPMethod<Data> = .get, at path: String = "thing") -> Resource<String> {
    Resource(url: baseURL.appendingPathComponent(path), method: method, parse: { String(decoding: $0, as: UTF8.self) })
}

/// Records the events a web service reports, for its `observer`.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class EventLog: Sendable {
    private let recorded = Mutex<[WebserviceEvent]>([])

    /// The observer to give a web service.
    var observer: @Sendable (WebserviceEvent) -> Void {
        { event in self.recorded.withLock { $0.append(event) } }
    }

    /// The events so far, in order.
    var events: [WebserviceEvent] { recorded.withLock { $0 } }

    /// The descriptions of the events so far, in order.
    var descriptions: [String] { events.map(\.description) }
}

/// A clock for ``RetryPolicy``'s backoff and its wait for the network that records each wait and returns at once, or,
/// when `parks`, waits until cancelled; its time is the sum of the waits.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class VirtualClock: Sendable {
    private let waits = Mutex<[TimeInterval]>([])
    private let parks: Bool

    init(parks: Bool = false) {
        self.parks = parks
    }

    /// The waits asked for, in order.
    var sleeps: [TimeInterval] { waits.withLock { $0 } }

    /// The seconds the waits add up to: the clock's time.
    var elapsed: TimeInterval { sleeps.reduce(0, +) }

    /// The uptime to give a ``RetryPolicy``'s wait for the network: ``elapsed`` in nanoseconds.
    var uptime: @Sendable () -> UInt64 {
        { UInt64((self.elapsed * 1_000_000_000).rounded()) }
    }

    /// The sleep to give a ``RetryPolicy``.
    var sleep: @Sendable (TimeInterval) async throws -> Void {
        { seconds in
            self.waits.withLock { $0.append(seconds) }
            guard self.parks else { return }
            // Only cancellation ends the wait: an hour is a hang the test's time limit catches.
            try await Task.sleep(for: .seconds(3600))
        }
    }
}
