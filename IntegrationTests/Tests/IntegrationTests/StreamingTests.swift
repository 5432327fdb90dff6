import EpisodesService
import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Streams against the Episodes server's streaming routes, with each transport side by side.
@Suite(.timeLimit(.minutes(1))) struct StreamingTests {
    private struct Tick: Decodable, Equatable, Sendable {
        var n: Int
    }

    private static func ticks(_ url: URL) -> StreamingResource<Tick> {
        StreamingResource(
            Resource<Data>(url: url),
            serverSentEvents: { event in
                try JSONDecoder().decode(Tick.self, from: Data(event.data.utf8))
            })
    }

    private static func lines(_ url: URL) -> StreamingResource<Tick> {
        StreamingResource(Resource<Data>(url: url), jsonLines: JSONDecoder())
    }

    @Test(arguments: TransportKind.contract) func serverSentEventsArriveParsed(kind: TransportKind) async throws {
        try await withServer { base in
            let events = StreamingResource(
                Resource<Data>(url: base / "streams/events?count=5"), serverSentEvents: { $0 })
            var received: [ServerSentEvent] = []
            for try await event in try await kind.webservice().load(events) { received.append(event) }
            #expect(received.map(\.data) == (1...5).map { #"{"n":\#($0)}"# })
            #expect(received.map(\.id) == (1...5).map { "\($0)" })
            #expect(received.allSatisfy { $0.type == "tick" })
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theFirstEventArrivesWhileTheServerHoldsTheStreamAndCancellingClosesIt(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice()
            let loop = Task {
                var first: Tick?
                for try await tick in try await webservice.load(Self.ticks(base / "streams/events?count=1&hold=1")) {
                    first = tick
                    break
                }
                return first
            }
            #expect(try await loop.value == Tick(n: 1))
            let cancelled = Task {
                for try await _ in try await webservice.load(Self.ticks(base / "streams/events?count=1&hold=1")) {}
            }
            try await Task.sleep(for: .milliseconds(300))
            let start = ContinuousClock.now
            cancelled.cancel()
            _ = await cancelled.result
            #expect(ContinuousClock.now - start < .seconds(5))
        }
    }

    @Test(arguments: TransportKind.allCases) func jsonLinesArriveInOrder(kind: TransportKind) async throws {
        try await withServer { base in
            var count = 0
            for try await tick in try await kind.webservice().load(Self.lines(base / "streams/lines?count=20000")) {
                count += 1
                #expect(tick.n == count)
            }
            #expect(count == 20000)
        }
    }

    /// A loop that holds its stream back delays no other load of the process, of any session or transport.
    ///
    /// On Linux, one thread of curl's serves every `URLSession` of the process: it must never wait for a loop. Its regression
    /// hangs the process, so it runs in a child.
    @Test(arguments: TransportKind.allCases) func aHeldBackStreamDelaysNoOtherLoad(kind: TransportKind) async throws {
        try await inChildProcess(case: kind) {
            try await withServer { base in
                // Five gigabytes of lines, more than any backlog holds.
                let url = base / "streams/lines?count=5000000&pad=1000"
                var lines = try await kind.webservice().load(Self.lines(url)).makeAsyncIterator()
                #expect(try await lines.next()?.n == 1)
                try await Task.sleep(for: .milliseconds(500))  // the server writes while the loop holds back
                var other = bytes(base / "episodes")
                other.timeout = 15  // a frozen load waits for the 5 GB stream, far longer
                for kind in TransportKind.allCases {
                    let start = ContinuousClock.now
                    #expect(try await kind.webservice().load(other).isEmpty == false, "with \(kind)")
                    print("beside a held stream, a load with \(kind) took \(ContinuousClock.now - start)")
                }
                let start = ContinuousClock.now
                let plain = URLSession(configuration: .ephemeral)
                let (data, _) = try await plain.data(for: URLRequest(url: other.url, timeoutInterval: 5))
                #expect(data.isEmpty == false)
                print("beside a held stream, a load with a URLSession of its own took \(ContinuousClock.now - start)")
                // The held stream goes on in order; where the transport can't hold the server back, it ends with the
                // backlog's error after the lines that waited.
                var count = 1
                do {
                    while count < 20_000, let line = try await lines.next() {
                        count += 1
                        #expect(line.n == count)
                    }
                    #expect(count == 20_000)
                } catch let error as WebserviceError {
                    #expect(kind == .urlSession, "\(error)")
                    #expect((error.underlyingError as? URLError)?.code == .dataLengthExceedsMaximum, "\(error)")
                    #expect(count > 1_000)
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases) func aStreamCutShortThrowsAfterItsElements(kind: TransportKind)
        async throws
    {
        try await withServer { base in
            var received = 0
            let error = await #expect(throws: (any Error).self) {
                for try await _ in try await kind.webservice().load(
                    Self.lines(base / "streams/lines?count=100&cut=10&ms=1"))
                {
                    received += 1
                }
            }
            #expect(received == 10)
            #expect(error is WebserviceError, "\(String(describing: error))")
        }
    }

    /// An event stream connects again by default, as `EventSource` does, after the server's `retry` time: four breaks
    /// in all, each after events, which start the count of tries in a row again.
    @Test(arguments: TransportKind.allCases)
    func aBrokenEventStreamConnectsAgainByDefaultAndDeliversEachEventOnce(kind: TransportKind) async throws {
        try await withServer { base in
            var received: [Int] = []
            for try await tick in try await kind.webservice().load(
                Self.ticks(base / "streams/events?count=9&drop=2&retry=50"))
            {
                received.append(tick.n)
            }
            #expect(received == Array(1...9))
            // A stream that breaks before each first event: the reconnections in a row are bounded.
            let error = try await #require(throws: WebserviceError.self) {
                for try await tick in try await kind.webservice().load(
                    Self.ticks(base / "streams/events?count=3&drop=0&retry=10"))
                {
                    received.append(tick.n)
                }
            }
            #expect(received == Array(1...9))
            #expect(error.statusCode == 200, "\(error)")
        }
    }

    /// A stream opted out of reconnecting ends at its break, with an error that names the response and what arrived.
    @Test(arguments: TransportKind.allCases)
    func aBreakNamesTheResponseAndTheEventsBeforeIt(kind: TransportKind) async throws {
        try await withServer { base in
            var stream = Self.ticks(base / "streams/events?count=7&drop=3")
            stream.maxReconnections = 0
            var received = 0
            let error = try await #require(throws: WebserviceError.self) {
                for try await _ in try await kind.webservice().load(stream) { received += 1 }
            }
            guard case .interrupted(_, let response, let elements, let bytes) = error.reason else {
                Issue.record("\(error)")
                return
            }
            #expect(response.statusCode == 200)
            #expect(elements == received)
            #expect(bytes > 0)
            #expect(received == 3 || kind == .asyncHTTPClient, "\(received) events before the break")
            #expect(error.description.contains("HTTP 200 response's body broke off after \(received) elements"))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aChallengeWithALongBodyEndsTheStreamAt401(kind: TransportKind) async throws {
        // Linux URLSession holds a 401 with a challenge until its body is in; past 1 MiB it hands it over, and that
        // must not make curl's thread wait for a reader who doesn't exist yet.
        try await withServer { base in
            let start = ContinuousClock.now
            let error = try await #require(throws: WebserviceError.self) {
                _ = try await kind.webservice().load(Self.lines(base / "streams/unauthorized"))
            }
            #expect(error.statusCode == 401)
            #expect(error.response?.body.data?.count == 1_048_576)
            #expect(ContinuousClock.now - start < .seconds(20))
        }
    }

    @Test(arguments: TransportKind.allCases) func anElementPastTheLimitThrows(kind: TransportKind) async throws {
        try await withServer { base in
            var request = Resource<Data>(url: base / "streams/lines?count=3&pad=70000")
            request.maxBodySize = 65_536
            let stream = StreamingResource<Tick>(request, jsonLines: JSONDecoder())
            let error = try await #require(throws: WebserviceError.self) {
                for try await _ in try await kind.webservice().load(stream) {}
            }
            #expect(error.bodyTooLarge == 65_536, "\(error)")
        }
    }

    @Test(arguments: TransportKind.allCases) func anUnacceptableStatusThrowsBeforeAnyElement(kind: TransportKind)
        async throws
    {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                _ = try await kind.webservice().load(Self.lines(base / "streams/none"))
            }
            #expect(error.statusCode == 404)
        }
    }
}

extension MemoryHungryTests {
    /// A loop that stops reading holds the server back: the process doesn't gather what the server would send.
    @Suite(.timeLimit(.minutes(1))) struct SlowStreamTests {
        @Test(arguments: TransportKind.allCases)
        func aSlowLoopHoldsTheServerBackInsteadOfGatheringItsBytes(kind: TransportKind) async throws {
            try await withServer { base in
                // Five gigabytes of lines, which loopback could deliver in seconds.
                let url = base / "streams/lines?count=5000000&pad=1000"
                let stream = StreamingResource<Line>(Resource<Data>(url: url), jsonLines: JSONDecoder())
                var iterator = try await kind.webservice().load(stream).makeAsyncIterator()
                #expect(try await iterator.next()?.n == 1)
                let before = try #require(processMemory("VmRSS"))
                try await Task.sleep(for: .seconds(2))
                let after = try #require(processMemory("VmRSS"))
                #expect(after - before < 64 * 1_048_576, "grew \((after - before) / 1_048_576) MB")
                #expect(try await iterator.next()?.n == 2)
            }
        }

        private struct Line: Decodable, Sendable {
            var n: Int
        }
    }
}
