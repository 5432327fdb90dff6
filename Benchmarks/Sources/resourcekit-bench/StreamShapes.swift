import AsyncHTTPClient
import EventSource
import Foundation
import NIOCore
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Typed streams (issue 26): `Webservice.load(StreamingResource)` against the same framing and parse written by hand
/// on the raw clients, and against mattt/EventSource's parser for server-sent events.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
enum StreamShapes {
    /// The bound on the memory a stream of any length may grow by.
    static let memoryBoundMiB = 64.0

    static func run(options: Options, report: Report) async throws {
        let linesURL = options.url(Fixtures.jsonLinesName)
        let eventsURL = options.url(Fixtures.eventsName)
        let linesBytes = try await contentLength(linesURL)
        let client = AsyncHTTPClientClients.makeClient()
        do {
            let webservice = Webservice(transport: AsyncHTTPClientTransport(client: client))
            report.heading(
                "streams: \(Fixtures.jsonLinesName), \(Format.megabytes(Double(linesBytes))) of JSON Lines, one Item a "
                    + "line, counted")
            try await jsonLines(
                section: "streams AHC", library: ("Webservice(transport: AHC).load(jsonLines:)", webservice),
                raw: ("HTTPClient.execute + hand-written framing (raw)", { try await rawLines(client, linesURL) }),
                bytes: linesBytes, options: options, report: report)
            try await jsonLines(
                section: "streams URLSession", library: ("Webservice().load(jsonLines:)", Webservice()),
                raw: ("URLSession delegate + hand-written framing (raw)", { try await rawLines(linesURL) }),
                bytes: linesBytes, options: options, report: report)
            try await memory(options: options, report: report)
            report.heading("streams: \(Fixtures.eventsName), \(Fixtures.eventCount) server-sent events")
            try await events(webservice, client: client, url: eventsURL, options: options, report: report)
            try await firstEvent(webservice, client: client, url: eventsURL, options: options, report: report)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    // MARK: - JSON Lines

    /// The JSON Lines stream of `url`, decoded as items.
    private static func linesResource(_ url: URL) -> StreamingResource<Item> {
        StreamingResource<Item>(Resource<Data>(url: url), jsonLines: JSONDecoder.items())
    }

    /// One library ÷ raw row of the JSON Lines fixture in MB/s; every pass must count the same elements.
    private static func jsonLines(
        section: String,
        library: (name: String, webservice: Webservice),
        raw: (name: String, load: () async throws -> Int),
        bytes: Int,
        options: Options,
        report: Report
    ) async throws {
        let resource = linesResource(options.url(Fixtures.jsonLinesName))
        var counts: (library: Set<Int>, raw: Set<Int>) = ([], [])
        let times = try await Interleaved.batches(
            rounds: options.rounds,
            library: { counts.library.insert(try await count(library.webservice.load(resource))) },
            raw: { counts.raw.insert(try await raw.load()) })
        guard counts.library.count == 1, counts.library == counts.raw, let elements = counts.library.first else {
            throw BenchError(
                "\(Fixtures.jsonLinesName): the library counted \(counts.library.sorted()), the raw client "
                    + "\(counts.raw.sorted())")
        }
        let megabytes = Double(bytes) / 1_000_000
        report.add(
            Comparison(
                section: section, shape: "\(Fixtures.jsonLinesName), parsed as Item, one element at a time",
                unit: "MB/s", decimals: 1, libraryName: library.name, rawName: raw.name,
                library: Samples(values: times.library.map { megabytes / $0 }),
                raw: Samples(values: times.raw.map { megabytes / $0 }), better: .higher, target: .atLeast(0.95)),
            notes: [
                "both counted \(Format.number(Double(elements), decimals: 0)) elements in every pass; per pass: "
                    + "library \(seconds(times.library)), raw \(seconds(times.raw))"
            ])
    }

    /// The elements of `sequence`, counted.
    private static func count(_ sequence: some AsyncSequence<Item, any Error>) async throws -> Int {
        var count = 0
        for try await _ in sequence { count += 1 }
        return count
    }

    /// Raw AsyncHTTPClient: the body's buffers split into lines by hand, each decoded with `JSONDecoder`.
    private static func rawLines(_ client: HTTPClient, _ url: URL) async throws -> Int {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/jsonl, application/x-ndjson")
        let response = try await client.execute(request, timeout: .hours(1))
        guard response.status == .ok else { throw BenchError("GET \(url.path) answered \(response.status)") }
        var lines = LineDecoder()
        for try await buffer in response.body {
            try buffer.withUnsafeReadableBytes { try lines.append($0) }
        }
        return try lines.finish()
    }

    /// Raw URLSession: a data task whose delegate splits each chunk into lines by hand and decodes them, in a session
    /// of its own with a serial delegate queue and no `URLCache`, as `Webservice()` sends a stream.
    private static func rawLines(_ url: URL) async throws -> Int {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        var request = URLRequest(url: url)
        request.setValue("application/jsonl, application/x-ndjson", forHTTPHeaderField: "Accept")
        return try await withCheckedThrowingContinuation { continuation in
            let session = URLSession(
                configuration: configuration, delegate: LinesDelegate(continuation), delegateQueue: queue)
            session.dataTask(with: request).resume()
            session.finishTasksAndInvalidate()
        }
    }

    // MARK: - Memory

    /// The growth of resident memory while the library streams the JSON Lines fixture, each transport in fresh child
    /// processes.
    private static func memory(options: Options, report: Report) async throws {
        report.heading(
            "streams: peak memory growth while streaming \(Fixtures.jsonLinesName), each in a fresh process (median "
                + "of \(options.memoryRepeats))")
        print(
            """
               Each child streams the first 1 000 elements and drops the stream (warm-up), trims the heap, reads VmRSS,
               resets the high-water mark, streams the whole fixture counting elements, and reads VmHWM.
            """)
        let variants = [
            ("ahc", "Webservice(transport: AHC).load(jsonLines:)"), ("urlsession", "Webservice().load(jsonLines:)"),
        ]
        var growths: [String: [Double]] = [:]
        for repeat_ in 0..<options.memoryRepeats {
            for (client, _) in repeat_.isMultiple(of: 2) ? variants : variants.reversed() {
                let output = try Subprocess.run(
                    try Memory.executable(), arguments: ["stream-memory", client, options.baseURL.absoluteString])
                let growth = try field("peak_bytes", in: output) - field("baseline_bytes", in: output)
                growths[client, default: []].append(growth / 1_048_576)
            }
        }
        var rows: [[String]] = []
        for (client, name) in variants {
            let samples = Samples(values: growths[client] ?? [])
            let passes = samples.max < memoryBoundMiB
            rows.append([
                name, Format.number(samples.median, decimals: 1) + " MiB",
                Format.number(samples.min, decimals: 1) + " – " + Format.number(samples.max, decimals: 1),
                "< \(Format.number(memoryBoundMiB, decimals: 0)) MiB", passes ? "PASS" : "MISS",
            ])
            report.addSummaryLine(
                SummaryLine(
                    section: client == "ahc" ? "streams AHC" : "streams URLSession",
                    shape: "peak growth streaming \(Fixtures.jsonLinesName) (MiB)", definition: "VmHWM − VmRSS",
                    ratio: samples.median, target: "< \(Format.number(memoryBoundMiB, decimals: 0))", passes: passes))
        }
        Table.print(header: ["variant", "VmHWM − VmRSS", "spread (min – max)", "target", "result"], rows: rows)
        print(
            "   the bound: what a transport holds in memory for the loop (URLSession: up to 1 MiB, then on disk), its own buffers (curl, "
                + "NIO), one element, and the framer's buffer")
    }

    /// The `stream-memory` child: streams the JSON Lines fixture once with the library over `urlsession` or `ahc` and
    /// prints `baseline_bytes=… peak_bytes=… count=…`.
    static func memoryChild(arguments: [String]) async throws {
        guard arguments.count == 2, ["urlsession", "ahc"].contains(arguments[0]) else {
            throw BenchError("usage: resourcekit-bench stream-memory urlsession|ahc BASE_URL")
        }
        let options = try Options(arguments: [arguments[1]])
        let resource = linesResource(options.url(Fixtures.jsonLinesName))
        let client = arguments[0] == "ahc" ? AsyncHTTPClientClients.makeClient() : nil
        let webservice = client.map { Webservice(transport: AsyncHTTPClientTransport(client: $0)) } ?? Webservice()
        do {
            var warmed = 0
            for try await _ in try await webservice.load(resource) {
                warmed += 1
                if warmed == 1_000 { break }
            }
            MemoryChild.trimHeap()
            let baseline = try MemoryChild.status("VmRSS")
            try MemoryChild.resetPeak()
            let elements = try await count(webservice.load(resource))
            let peak = try MemoryChild.status("VmHWM")
            print("baseline_bytes=\(baseline) peak_bytes=\(peak) count=\(elements)")
        } catch {
            try? await client?.shutdown()
            throw error
        }
        try await client?.shutdown()
    }

    // MARK: - Server-sent events

    /// What a pass over the events saw, to compare the library's with EventSource's.
    private struct EventsSeen: Equatable {
        var count = 0
        var first: (data: String, id: String?)?
        var last: (data: String, id: String?)?

        mutating func add(data: String, id: String?) {
            count += 1
            if first == nil { first = (data, id) }
            last = (data, id)
        }

        static func == (lhs: EventsSeen, rhs: EventsSeen) -> Bool {
            lhs.count == rhs.count && lhs.first?.data == rhs.first?.data && lhs.first?.id == rhs.first?.id
                && lhs.last?.data == rhs.last?.data && lhs.last?.id == rhs.last?.id
        }

        var description: String {
            "\(count) events, first id \(first?.id ?? "nil"), last id \(last?.id ?? "nil")"
        }
    }

    /// Events per second: ResourceKit's `serverSentEvents:` against EventSource's parser over the raw body's bytes.
    private static func events(
        _ webservice: Webservice,
        client: HTTPClient,
        url: URL,
        options: Options,
        report: Report
    ) async throws {
        let resource = StreamingResource(Resource<Data>(url: url), serverSentEvents: { $0 })
        var seen: (library: EventsSeen, raw: EventsSeen) = (EventsSeen(), EventsSeen())
        let times = try await Interleaved.batches(
            rounds: options.rounds,
            library: {
                var pass = EventsSeen()
                for try await event in try await webservice.load(resource) { pass.add(data: event.data, id: event.id) }
                seen.library = pass
            },
            raw: {
                var request = HTTPClientRequest(url: url.absoluteString)
                request.headers.add(name: "Accept", value: "text/event-stream")
                let response = try await client.execute(request, timeout: .hours(1))
                guard response.status == .ok else { throw BenchError("GET \(url.path) answered \(response.status)") }
                var pass = EventsSeen()
                for try await event in BodyBytes(response.body).events { pass.add(data: event.data, id: event.id) }
                seen.raw = pass
            })
        let events = Double(Fixtures.eventCount)
        let same = seen.library == seen.raw && seen.library.count == Fixtures.eventCount
        report.add(
            Comparison(
                section: "streams AHC", shape: "server-sent events, each parsed to an event", unit: "events/s",
                decimals: 0, libraryName: "Webservice(transport: AHC).load(serverSentEvents:)",
                rawName: "mattt/EventSource 1.1.1 parser over HTTPClient's bytes",
                library: Samples(values: times.library.map { events / $0 }),
                raw: Samples(values: times.raw.map { events / $0 }), better: .higher, target: .atLeast(1)),
            notes: [
                same
                    ? "both saw \(seen.library.description), the same first and last data"
                    : "FLAG: the library saw \(seen.library.description), EventSource \(seen.raw.description)",
                "per pass: library \(seconds(times.library)), EventSource \(seconds(times.raw))",
            ])
        if !same {
            report.addSummaryLine(
                SummaryLine(
                    section: "streams AHC", shape: "the same events as EventSource", definition: "count, first, last",
                    ratio: 0, target: "equal", passes: false, kind: .baseline))
        }
    }

    /// The time from sending the request to the first event, against raw AsyncHTTPClient's time to the body's first
    /// chunk; each stream is dropped after it, which closes its connection.
    private static func firstEvent(
        _ webservice: Webservice,
        client: HTTPClient,
        url: URL,
        options: Options,
        report: Report
    ) async throws {
        let resource = StreamingResource(Resource<Data>(url: url), serverSentEvents: { $0 })
        let clock = ContinuousClock()
        func library() async throws -> Double {
            let start = clock.now
            var events = try await webservice.load(resource).makeAsyncIterator()
            guard try await events.next() != nil else { throw BenchError("\(url.path): no first event") }
            return (clock.now - start).seconds
        }
        func raw() async throws -> Double {
            let start = clock.now
            var request = HTTPClientRequest(url: url.absoluteString)
            request.headers.add(name: "Accept", value: "text/event-stream")
            let response = try await client.execute(request, timeout: .seconds(30))
            var chunks = response.body.makeAsyncIterator()
            guard try await chunks.next() != nil else { throw BenchError("\(url.path): no first chunk") }
            return (clock.now - start).seconds
        }
        let count = options.firstEvents
        for _ in 0..<Swift.max(1, count / 10) {
            _ = try await library()
            _ = try await raw()
        }
        var times: (library: [Double], raw: [Double]) = ([], [])
        for round in 0..<options.rounds {
            var sums = (library: 0.0, raw: 0.0)
            for index in 0..<count {
                if (round + index).isMultiple(of: 2) {
                    sums.library += try await library()
                    sums.raw += try await raw()
                } else {
                    sums.raw += try await raw()
                    sums.library += try await library()
                }
            }
            times.library.append(sums.library * 1000 / Double(count))
            times.raw.append(sums.raw * 1000 / Double(count))
        }
        report.add(
            Comparison(
                section: "streams AHC", shape: "time to the first event (\(count) per round, mean)", unit: "ms",
                decimals: 3, libraryName: "Webservice(transport: AHC).load(serverSentEvents:), first element",
                rawName: "HTTPClient.execute, first body chunk (raw)", library: Samples(values: times.library),
                raw: Samples(values: times.raw), better: .lower, target: .atLeast(0.67)),
            notes: ["from sending the request; each stream is dropped after its first element or chunk"])
    }

    // MARK: - Helpers

    private static func seconds(_ times: [Double]) -> String {
        Format.number(Samples(values: times).median, decimals: 2) + " s"
    }

    /// The `Content-Length` of `url`, from a `HEAD` request.
    private static func contentLength(_ url: URL) async throws -> Int {
        var request = URLRequest(url: url)
        request.httpMethod = "HEAD"
        let (_, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200, http.expectedContentLength > 0 else {
            throw BenchError(
                "HEAD \(url.absoluteString) failed: \(response); generate the fixtures with this version of the "
                    + "benchmarks")
        }
        return Int(http.expectedContentLength)
    }

    /// A `key=value` number from a child's output.
    private static func field(_ key: String, in output: String) throws -> Double {
        for word in output.split(whereSeparator: \.isWhitespace) where word.hasPrefix(key + "=") {
            if let value = Double(word.dropFirst(key.count + 1)) { return value }
        }
        throw BenchError("the child process printed no \(key):\n\(output)")
    }
}

/// Lines split by hand from the chunks of a body, each decoded as an `Item`: the raw variants' framing.
struct LineDecoder {
    private let decoder = JSONDecoder.items()
    /// The start of a line whose end hasn't arrived yet.
    private var carry = Data()
    private(set) var count = 0

    /// Decodes every line `bytes` completes and keeps the rest.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws {
        var start = 0
        while let end = bytes[start...].firstIndex(of: 0x0A) {
            if carry.isEmpty {
                try decode(Data(UnsafeRawBufferPointer(rebasing: bytes[start..<end])))
            } else {
                carry.append(contentsOf: bytes[start..<end])
                try decode(carry)
                carry.removeAll(keepingCapacity: true)
            }
            start = end + 1
        }
        carry.append(contentsOf: bytes[start...])
    }

    /// Decodes a last line without its line feed, and returns the number of lines.
    mutating func finish() throws -> Int {
        try decode(carry)
        carry = Data()
        return count
    }

    private mutating func decode(_ line: Data) throws {
        guard !line.isEmpty else { return }
        _ = try decoder.decode(Item.self, from: line)
        count += 1
    }
}

/// The raw URLSession variant's delegate: frames and decodes each chunk on the session's serial delegate queue, and
/// resumes the load's continuation with the count when the task completes.
final class LinesDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Only the delegate queue, which runs one operation at a time, touches these.
    private var lines = LineDecoder()
    private var failure: (any Error)?
    private let continuation: CheckedContinuation<Int, any Error>

    init(_ continuation: CheckedContinuation<Int, any Error>) {
        self.continuation = continuation
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil else { return }
        do {
            try data.withUnsafeBytes { try lines.append($0) }
        } catch {
            failure = error
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error = failure ?? error {
            continuation.resume(throwing: error)
        } else if let http = task.response as? HTTPURLResponse, http.statusCode != 200 {
            continuation.resume(throwing: BenchError("\(task.originalRequest?.url?.path ?? "") answered \(http)"))
        } else {
            continuation.resume(with: Result { try lines.finish() })
        }
    }
}

/// The bytes of an AsyncHTTPClient body, one `UInt8` at a time, for EventSource's `AsyncSequence<UInt8>.events`.
struct BodyBytes: AsyncSequence {
    typealias Element = UInt8
    let body: HTTPClientResponse.Body

    init(_ body: HTTPClientResponse.Body) {
        self.body = body
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: body.makeAsyncIterator())
    }

    struct Iterator: AsyncIteratorProtocol {
        var chunks: HTTPClientResponse.Body.AsyncIterator
        var chunk = ByteBuffer()

        mutating func next() async throws -> UInt8? {
            while chunk.readableBytes == 0 {
                guard let next = try await chunks.next() else { return nil }
                chunk = next
            }
            return chunk.readInteger(as: UInt8.self)
        }
    }
}
