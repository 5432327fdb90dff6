import Foundation
import ResourceKit
import Synchronization
import Testing

@testable import ResourceKitBuiltIns

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stream of server-sent events that breaks connects again, as `EventSource` does, within bounds a server can't
/// lift; a break it doesn't connect again after names what arrived before it.
@Suite(.timeLimit(.minutes(1))) struct StreamReconnectionTests {
    private static let url = URL(string: "https://api.example.com/events?api_key=s3cr3t")!

    /// A server that answers each connection with the next of `answers` (the last one again once they run out): a
    /// body that ends, one that breaks after its text, or no response at all.
    private final class Server: Transport {
        enum Answer {
            case ends(String)
            case breaks(String)
            /// A body that fails with `error` after its text.
            case fails(String, any Error)
            case refuses
        }

        private let answers: [Answer]
        private let sent = Mutex<[Request]>([])

        init(_ answers: Answer...) {
            self.answers = answers
        }

        /// The requests so far, in order.
        var requests: [Request] { sent.withLock { $0 } }

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            let turn = sent.withLock {
                $0.append(request)
                return $0.count - 1
            }
            let answer = answers[min(turn, answers.count - 1)]
            let text: String
            let failure: (any Error)?
            switch answer {
            case .refuses: throw URLError(.cannotConnectToHost)
            case .ends(let body): (text, failure) = (body, nil)
            case .breaks(let body): (text, failure) = (body, URLError(.networkConnectionLost))
            case .fails(let body, let error): (text, failure) = (body, error)
            }
            let (chunks, writer) = AsyncThrowingStream.makeStream(of: Data.self)
            if !text.isEmpty { writer.yield(Data(text.utf8)) }
            writer.finish(throwing: failure)
            let head = Response(
                statusCode: 200, headers: ["Content-Type": "text/event-stream"], body: Data(), url: request.url)
            return (head, ResponseBody(chunks))
        }
    }

    /// A transport's error of its own for a connection that closed.
    private struct ConnectionClosed: Error {}

    private static func events(
        _ method: HTTPMethod<Data> = .get,
        clock: VirtualClock,
        maxReconnections: Int? = nil,
        headers: [String: String] = [:]
    ) -> StreamingResource<String> {
        var resource = Resource<Data>(url: url, method: method)
        resource.headers = headers
        var stream = StreamingResource(resource, serverSentEvents: { $0.data })
        stream.sleep = { try await clock.sleep(for: .seconds($0)) }
        if let maxReconnections { stream.maxReconnections = maxReconnections }
        return stream
    }

    /// The elements `stream` delivers from `server`, and the error that ended it, if any.
    private static func load<Element>(
        _ stream: StreamingResource<Element>,
        from server: Server
    ) async throws -> ([Element], WebserviceError?) {
        var elements: [Element] = []
        do {
            for try await element in try await Webservice(transport: server).load(stream) { elements.append(element) }
            return (elements, nil)
        } catch let error as WebserviceError {
            return (elements, error)
        }
    }

    @Test func aBrokenEventStreamConnectsAgainByDefaultFromItsLastWholeEvent() async throws {
        let server = Server(
            .breaks("retry: 10\nid: 1\ndata: a\n\nid: 2\ndata: b\n\nid: 3\nda"),
            .ends("id: 3\ndata: c\n\n"))
        let clock = VirtualClock()
        let (events, error) = try await Self.load(Self.events(clock: clock), from: server)
        #expect(error == nil, "\(String(describing: error))")
        #expect(events == ["a", "b", "c"])
        #expect(server.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") } == [nil, "2"])
        #expect(clock.sleeps == [0.1])
    }

    /// An ID that couldn't be a header field — one with a control character, or longer than 1 KiB — is ignored, and
    /// the stream connects again with the last ID it took.
    @Test(arguments: ["a\u{01}b", "a\u{7F}b", String(repeating: "x", count: 1_025)])
    func anIDThatCouldntBeAHeaderFieldIsIgnored(id: String) async throws {
        let server = Server(.breaks("id: 1\ndata: a\n\nid: \(id)\ndata: b\n\n"), .ends("data: c\n\n"))
        let (events, error) = try await Self.load(Self.events(clock: VirtualClock()), from: server)
        #expect(error == nil, "\(String(describing: error))")
        #expect(events == ["a", "b", "c"])
        #expect(server.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") } == [nil, "1"])
    }

    /// The stream's ID takes the place of the caller's `Last-Event-ID`, in whatever letter case it was set, and an
    /// empty `id` resets it: the next connection sends none.
    @Test func theLastEventIDReplacesTheCallersAndAnEmptyIDRemovesIt() async throws {
        let server = Server(.breaks("id: 1\ndata: a\n\n"), .breaks("id:\ndata: b\n\n"), .ends("data: c\n\n"))
        let stream = Self.events(clock: VirtualClock(), headers: ["last-event-id": "0"])
        let (events, error) = try await Self.load(stream, from: server)
        #expect(error == nil, "\(String(describing: error))")
        #expect(events == ["a", "b", "c"])
        #expect(
            server.requests.map { request in
                request.headerFields.filter { $0.name.lowercased() == "last-event-id" }.map(\.value)
            } == [["0"], ["1"], []])
    }

    /// A break connects again whatever the transport calls it: a lost connection, an idle one, or an error of its
    /// own, such as a TLS connection closed uncleanly.
    @Test(
        arguments: [
            URLError(.networkConnectionLost), URLError(.timedOut), URLError(.unknown), ConnectionClosed(),
        ] as [any Error])
    func aBreakConnectsAgainWhateverTheTransportCallsIt(failure: any Error) async throws {
        let server = Server(.fails("id: 1\ndata: a\n\n", failure), .ends("id: 2\ndata: b\n\n"))
        let (events, error) = try await Self.load(Self.events(clock: VirtualClock()), from: server)
        #expect(error == nil, "\(String(describing: error))")
        #expect(events == ["a", "b"])
        #expect(server.requests.count == 2)
    }

    /// Only a connection that broke connects again: not a body the stream's limits or the transport's decoding
    /// stopped, which would stop it again.
    @Test(
        arguments: [
            WebserviceError(.bodyTooLarge(limit: 64)), URLError(.cannotDecodeContentData),
            URLError(.dataLengthExceedsMaximum),
        ] as [any Error])
    func aBodyThatFailsOtherwiseThanByABreakDoesntConnectAgain(failure: any Error) async throws {
        let server = Server(.fails("id: 1\ndata: a\n\n", failure), .ends("id: 2\ndata: b\n\n"))
        let clock = VirtualClock()
        let (events, error) = try await Self.load(Self.events(clock: clock), from: server)
        #expect(events == ["a"])
        #expect(error != nil)
        #expect(server.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    /// A server that breaks every connection at once can't make the client spin, nor keep it waiting past a minute a
    /// try, whatever `retry` it sends.
    @Test(arguments: [
        ("", 3.0), ("retry: 86400000\n\n", 60), ("retry: 99999999999999999999999\n\n", 3), ("retry: 0\n\n", 0.1),
    ])
    func aServerThatBreaksEveryConnectionGetsABoundedNumberOfTriesInARow(body: String, wait: Double) async throws {
        let server = Server(.breaks(body))
        let clock = VirtualClock()
        let (events, error) = try await Self.load(Self.events(clock: clock), from: server)
        #expect(events.isEmpty)
        #expect(server.requests.count == 4)
        #expect(clock.sleeps == [wait, wait, wait])
        let (underlying, response, elements, _) = try requireCase(\.interrupted, of: error)
        #expect((underlying as? URLError)?.code == .networkConnectionLost)
        #expect(response.statusCode == 200)
        #expect(elements == 0)
    }

    /// The tries are counted in a row: each event that arrives starts the count again.
    @Test func anEventStartsTheCountOfTriesAgain() async throws {
        let server = Server(
            .breaks("retry: 5\nid: 1\ndata: 1\n\n"), .breaks("id: 2\ndata: 2\n\n"), .breaks("id: 3\ndata: 3\n\n"),
            .breaks("id: 4\ndata: 4\n\n"), .breaks("id: 5\ndata: 5\n\n"), .ends("id: 6\ndata: 6\n\n"))
        let (events, error) = try await Self.load(Self.events(clock: VirtualClock()), from: server)
        #expect(error == nil, "\(String(describing: error))")
        #expect(events == ["1", "2", "3", "4", "5", "6"])
    }

    /// A connection that fails before its response counts as a try, and the stream goes on once one succeeds.
    @Test func aConnectionThatFailsCountsAsATry() async throws {
        let server = Server(.breaks("retry: 5\nid: 1\ndata: a\n\n"), .refuses, .refuses, .ends("id: 2\ndata: b\n\n"))
        let clock = VirtualClock()
        let (events, error) = try await Self.load(Self.events(clock: clock), from: server)
        #expect(error == nil, "\(String(describing: error))")
        #expect(events == ["a", "b"])
        #expect(clock.sleeps.count == 3)
        #expect(server.requests.dropFirst().allSatisfy { $0.value(forHTTPHeaderField: "Last-Event-ID") == "1" })
    }

    /// A stream opted out (`maxReconnections = 0`), one sent with another method than `GET` and any other framing
    /// than events are never connected again.
    @Test(arguments: ["opted out", "POST", "JSON Lines"]) func onlyAnEventStreamOfAGETConnectsAgain(kind: String)
        async throws
    {
        let server =
            kind == "JSON Lines"
            ? Server(.breaks("1\n"), .ends("2\n")) : Server(.breaks("id: 1\ndata: 1\n\n"), .ends("id: 2\ndata: 2\n\n"))
        let clock = VirtualClock()
        let error: WebserviceError?
        switch kind {
        case "opted out": (_, error) = try await Self.load(Self.events(clock: clock, maxReconnections: 0), from: server)
        case "POST": (_, error) = try await Self.load(Self.events(.post(Data()), clock: clock), from: server)
        default:
            var lines = StreamingResource<Int>(Resource<Data>(url: Self.url), jsonLines: JSONDecoder())
            lines.sleep = { try await clock.sleep(for: .seconds($0)) }
            (_, error) = try await Self.load(lines, from: server)
        }
        #expect(server.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
        _ = try requireCase(\.interrupted, of: error)
    }

    /// The error of a break names the response's status and what arrived before the break, never the request's
    /// credentials, and doesn't claim that no response arrived.
    @Test func aBreakNamesTheResponseAndWhatArrivedBeforeIt() async throws {
        let body = "id: 1\ndata: a\n\nid: 2\ndata: b\n\nid: 3\ndata: c\n\n"
        let server = Server(.breaks(body))
        let (events, error) = try await Self.load(
            Self.events(clock: VirtualClock(), maxReconnections: 0), from: server)
        #expect(events == ["a", "b", "c"])
        let failure = try #require(error)
        let (_, response, elements, bytes) = try requireCase(\.interrupted, of: failure)
        #expect(response.statusCode == 200)
        #expect(failure.statusCode == 200)
        #expect(elements == 3)
        #expect(bytes == body.utf8.count)
        let description = failure.description
        #expect(description.contains("HTTP 200 response's body broke off after 3 elements in \(bytes) bytes"))
        #expect(!description.contains("before a response arrived"))
        #expect(!description.contains("s3cr3t"))
    }
}
