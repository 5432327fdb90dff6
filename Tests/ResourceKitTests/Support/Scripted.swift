import Foundation
import ResourceKit
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a scripted server does with one request.
enum Answer: Sendable {
    /// Answers with a status code, header fields and a body.
    case status(Int, headers: [String: String] = [:], body: String = #"{"ok":true}"#)
    /// Fails before a response arrives, as a transport does.
    case failure(URLError.Code)
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension StubTransport {
    /// Answers the requests in turn with `answers`, the last one repeating; `log` counts them.
    static func scripted(_ answers: Answer...) -> StubTransport {
        let turn = Mutex(0)
        return StubTransport { request in
            let index = turn.withLock { turn in
                defer { turn += 1 }
                return min(turn, answers.count - 1)
            }
            switch answers[index] {
            case .status(let statusCode, let headers, let body):
                return (Data(body.utf8), try httpResponse(statusCode, url: request.url ?? baseURL, headers: headers))
            case .failure(let code):
                throw URLError(code)
            }
        }
    }
}

/// The resource the production-layer tests load: `GET …/thing`, its body as text.
func thing(_ method: HTTPMethod<Data> = .get, at path: String = "thing") -> Resource<String> {
    Resource(url: baseURL.appendingPathComponent(path), method: method, parse: { String(decoding: $0, as: UTF8.self) })
}

/// Records the events a web service reports, for ``Webservice/observer``.
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

/// A clock for ``RetryPolicy`` that records each wait and returns at once, or, when `parks`, waits until cancelled.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class VirtualClock: Sendable {
    private let waits = Mutex<[TimeInterval]>([])
    private let parks: Bool

    init(parks: Bool = false) {
        self.parks = parks
    }

    /// The waits asked for, in order.
    var sleeps: [TimeInterval] { waits.withLock { $0 } }

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
