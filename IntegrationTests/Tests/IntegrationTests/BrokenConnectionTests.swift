import Foundation
import ResourceKit
import Testing

/// Connections that break after the client received bytes.
///
/// The server waits until the client's kernel acknowledged
/// each byte before it breaks the connection (``withAcknowledgingServer(answer:_:)``), so what arrived is known
/// exactly: `URLSession` hands over every byte of it; AsyncHTTPClient 1.37 drops what it read from the socket but had
/// not handed to the reader when the connection broke (see <doc:Transports>), and ResourceKit keeps all it did hand
/// over, asking for none of that again.
@Suite(.timeLimit(.minutes(1))) struct BrokenConnectionTests {
    private struct Tick: Decodable, Equatable, Sendable {
        var n: Int
    }

    /// A download of 8 MiB broken after 5 MiB: the next load asks for the rest from exactly the byte after the last
    /// that arrived, and the file is whole.
    @Test(arguments: TransportKind.allCases) func aBrokenDownloadResumesAfterTheLastByteThatArrived(
        kind: TransportKind
    ) async throws {
        let content = (0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let sent = 5 << 20
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file.bin")
        var kept = Data()
        let requests = try await withAcknowledgingServer(answer: { n, request in
            let head = "Content-Type: application/octet-stream\r\nETag: \"v1\"\r\nAccept-Ranges: bytes\r\n"
            guard n > 0, let start = Self.rangeStart(of: request) else {
                return Array("HTTP/1.1 200 OK\r\nContent-Length: \(content.count)\r\n\(head)\r\n".utf8)
                    + content[..<sent]
            }
            let range = "bytes \(start)-\(content.count - 1)/\(content.count)"
            return Array(
                "HTTP/1.1 206 Partial Content\r\nContent-Length: \(content.count - start)\r\nContent-Range: \(range)\r\n\(head)\r\n"
                    .utf8) + content[start...]
        }) { base in
            let webservice = kind.webservice()
            let download = Resource<URL>(url: base / "file.bin", downloadingTo: destination)
            let failure = try await #require(throws: WebserviceError.self) { try await webservice.load(download) }
            #expect(failure.urlError?.code == .networkConnectionLost, "\(failure)")
            kept = try Data(contentsOf: directory.appendingPathComponent(".file.bin.partial"))
            _ = try await webservice.load(download)
        }
        #expect(kept == Data(content[..<kept.count]))
        #expect(kind == .asyncHTTPClient || kept.count == sent, "URLSession handed over \(kept.count) of \(sent) bytes")
        #expect(requests.count == 2)
        #expect(requests.dropFirst().map(Self.rangeStart) == [kept.count], "the client asked again for bytes it had")
        #expect(try Data(contentsOf: destination) == Data(content))
    }

    /// An event stream broken after four events, read by a slow loop: the loop gets all four, and the stream connects
    /// again with the last one's ID.
    @Test(arguments: TransportKind.allCases) func aSlowLoopGetsEveryEventThatArrivedBeforeABreak(kind: TransportKind)
        async throws
    {
        let requests = try await withAcknowledgingServer(answer: { n, request in
            // Four events, then the connection breaks; connected again, the events after the last one the client has.
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            let last = Self.field("Last-Event-ID", of: request).flatMap { Int($0) } ?? 0
            let events = ((last + 1)...(n == 0 ? 4 : 6)).map {
                chunked("retry: 10\nid: \($0)\ndata: {\"n\":\($0)}\n\n")
            }
            return Array((head + events.joined() + (n == 0 ? "" : "0\r\n\r\n")).utf8)
        }) { base in
            var stream = StreamingResource(
                Resource<Data>(url: base / "events"),
                serverSentEvents: { try JSONDecoder().decode(Tick.self, from: Data($0.data.utf8)) })
            stream.maxReconnections = 1
            var received: [Int] = []
            for try await tick in try await kind.webservice().load(stream) {
                received.append(tick.n)
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(received == Array(1...6))
        }
        #expect(requests.count == 2)
        let lastID = requests.last.flatMap { Self.field("Last-Event-ID", of: $0) }
        #expect(
            kind == .asyncHTTPClient || lastID == "4", "URLSession handed over the events up to \(lastID ?? "none")")
    }

    /// JSON Lines broken after a mebibyte, read by a slow loop: every line that arrived comes before the error, in
    /// order (with AsyncHTTPClient, every line in what it handed over).
    @Test(arguments: TransportKind.allCases) func aSlowLoopGetsEveryLineThatArrivedBeforeTheError(kind: TransportKind)
        async throws
    {
        let padding = String(repeating: "x", count: 1_000)
        try await withAcknowledgingServer(answer: { _, _ in
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/jsonl\r\nTransfer-Encoding: chunked\r\n\r\n"
            return Array((head + (1...1_000).map { chunked("{\"n\":\($0),\"pad\":\"\(padding)\"}\n") }.joined()).utf8)
        }) { base in
            let stream = StreamingResource<Tick>(Resource<Data>(url: base / "lines"), jsonLines: JSONDecoder())
            var received = 0
            let error = await #expect(throws: WebserviceError.self) {
                for try await tick in try await kind.webservice().load(stream) {
                    received += 1
                    #expect(tick.n == received)
                    if received.isMultiple(of: 100) { try await Task.sleep(for: .milliseconds(100)) }
                }
            }
            #expect(kind == .asyncHTTPClient || received == 1_000, "\(String(describing: error))")
            #expect(received > 0)
        }
    }

    /// The first byte a request's `Range: bytes=N-` asks for.
    private static func rangeStart(of request: String) -> Int? {
        field("Range", of: request).flatMap { Int($0.dropFirst("bytes=".count).prefix { $0 != "-" }) }
    }

    /// The value of the field `name` in a request's head.
    private static func field(_ name: String, of request: String) -> String? {
        let prefix = name.lowercased() + ": "
        return request.split(separator: "\r\n").first { $0.lowercased().hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count)) }
    }
}
