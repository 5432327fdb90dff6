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

/// A clock for ``RetryPolicy``'s backoff and its wait for the network whose every sleep is recorded and returns at
/// once, or, when `parks`, waits until cancelled; its time is the sum of the sleeps.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class VirtualClock: Clock, Sendable {
    /// A reading of the clock: the time its sleeps add up to.
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let waits = Mutex<[Duration]>([])
    private let parks: Bool

    init(parks: Bool = false) {
        self.parks = parks
    }

    var now: Instant { Instant(offset: waits.withLock { $0.reduce(.zero, +) }) }
    var minimumResolution: Duration { .zero }

    /// Records the sleep until `deadline` and returns, or parks until cancelled.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        waits.withLock { $0.append(max(.zero, deadline.offset - $0.reduce(.zero, +))) }
        guard parks else { return }
        // Only cancellation ends the wait: an hour is a hang the test's time limit catches.
        try await Task.sleep(for: .seconds(3600))
    }

    /// The sleeps asked for, in order, in seconds.
    var sleeps: [TimeInterval] { waits.withLock { $0.map { $0 / .seconds(1) } } }

    /// The seconds the sleeps add up to: the clock's time.
    var elapsed: TimeInterval { now.offset / .seconds(1) }
}
