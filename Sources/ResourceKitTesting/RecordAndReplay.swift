import Foundation
import ResourceKit
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Transport` that sends requests through another one and saves each exchange as a fixture file in a directory,
/// credentials redacted, for a ``ReplayTransport`` to serve later.
///
/// Run your tests once against the real server with a recording transport, commit the directory, and from then on
/// they run against the server's real responses without it:
///
/// ```swift
/// let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Recorded")
/// let transport: any Transport =
///     ProcessInfo.processInfo.environment["RECORD"] != nil
///     ? RecordingTransport(URLSessionTransport(), to: fixtures) : try ReplayTransport(from: fixtures)
/// ```
///
/// What is saved never holds a credential: the URL loses its userinfo and credential query values, response header
/// fields keep their values only when they are known to carry none or hold a URL (scrubbed), and the body has the
/// request's secrets replaced, a text body its credential fields too. The exchanges of one method and URL are
/// numbered in the order recorded, and replayed in that order.
public struct RecordingTransport: Transport {
    private let transport: any Transport
    private let directory: URL
    private let turns = Turns()

    /// Records the exchanges `transport` makes into `directory`, which is created if needed.
    public init(_ transport: any Transport, to directory: URL) {
        self.transport = transport
        self.directory = directory
    }

    /// Sends `request` through the wrapped transport, saves the exchange, and returns it.
    public func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        // Taken before the request is sent, so concurrent requests for one URL keep the order they were made in.
        let key = RecordedExchange.key(of: request)
        let turn = await turns.next(for: key)
        let (head, streamed) = try await transport.send(request, context: context)
        let body = try await streamed.collect(upTo: context.maxBodySize ?? .max)
        var exchange = RecordedExchange(request, response: head, body: body)
        exchange.turn = turn > 1 ? turn : nil
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(exchange).write(to: directory.appendingPathComponent(exchange.fileName), options: .atomic)
        return (head, ResponseBody(body))
    }

    /// How many exchanges of each key this transport and its copies have recorded.
    private actor Turns {
        private var counts: [String: Int] = [:]

        func next(for key: String) -> Int {
            let turn = counts[key, default: 0] + 1
            counts[key] = turn
            return turn
        }
    }
}

/// A `Transport` that answers from the fixture files a ``RecordingTransport`` saved, by method and URL.
///
/// The exchanges of one method and URL answer in the order they were recorded, one a request, the last one
/// repeating; copies of the transport share the turns. A request with no recorded exchange fails with
/// `URLError(.unsupportedURL)` naming it.
public struct ReplayTransport: Transport {
    private let answers: [String: StubAnswer]

    /// Reads every exchange recorded in `directory`.
    ///
    /// A recorded file there that is a symbolic link, a FIFO or anything but a regular file fails it with a
    /// `URLError`, at once.
    public init(from directory: URL) throws {
        var exchanges: [String: [RecordedExchange]] = [:]
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        for file in files where file.pathExtension == "json" {
            // A name found in the directory: a link there is refused, and a FIFO is never waited on.
            let contents = try file.regularFileContents(followingLinks: false)
            let exchange = try JSONDecoder().decode(RecordedExchange.self, from: contents)
            exchanges[exchange.key, default: []].append(exchange)
        }
        answers = exchanges.mapValues { exchanges in
            .sequence(
                exchanges.sorted { ($0.turn ?? 1) < ($1.turn ?? 1) }.map {
                    .status($0.status, headers: $0.headers, body: $0.bodyData)
                })
        }
    }

    /// The recorded response to `request`.
    public func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        let key = RecordedExchange.key(of: request)
        guard let answer = answers[key] else {
            let reason = "No recorded exchange answers \(key)."
            throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason])
        }
        return try await answer.response(to: request, at: request.url)
    }
}

/// One exchange as a fixture file holds it.
struct RecordedExchange: Codable {
    var method: String
    var url: String
    /// The exchange's place among those of its key, from 1; absent for the first.
    var turn: Int?
    var status: Int
    var headers: [String: String]
    /// The body as text, when it is UTF-8.
    var body: String?
    /// The body in base64, when it is not text.
    var bodyBase64: String?

    /// The response header fields whose values are URLs, recorded scrubbed rather than masked.
    private static let urlHeaderNames: Set<String> = ["link", "location", "content-location"]

    init(_ request: Request, response: Response, body: Data) {
        method = request.method
        url = Self.redacted(request)
        status = response.statusCode
        let secrets = Redaction.secrets(url: request.url, fields: request.headerFields.map { ($0.name, $0.value) })
        var headers: [String: String] = [:]
        for (name, value) in response.headers {
            let kept = isSafeHeader(name) || Self.urlHeaderNames.contains(name.lowercased())
            headers[name] = kept ? Redaction.scrub(value, removing: secrets) : Redaction.mark
        }
        let recorded: Data
        if let text = String(data: body, encoding: .utf8) {
            let scrubbed = Redaction.scrub(text, removing: secrets)
            self.body = scrubbed
            recorded = Data(scrubbed.utf8)
        } else {
            recorded = Redaction.removing(secrets, from: body)
            bodyBase64 = recorded.base64EncodedString()
        }
        // Redaction changes the body's length: the recorded length is the recorded body's. A response without a body
        // (to HEAD, a 204, a 304) keeps its own: it is the size of the body a GET would have.
        if recorded.count != body.count || !body.isEmpty {
            for name in headers.keys where name.lowercased() == "content-length" {
                headers[name] = String(recorded.count)
            }
        }
        self.headers = headers
    }

    var bodyData: Data {
        body.map { Data($0.utf8) } ?? bodyBase64.flatMap { Data(base64Encoded: $0) } ?? Data()
    }

    /// What a replayed request is found by.
    var key: String { Self.key(method: method, url: url) }

    static func key(method: String, url: String) -> String { "\(method.uppercased()) \(url)" }

    /// What `request`'s exchange is recorded and found by.
    static func key(of request: Request) -> String {
        key(method: request.method, url: redacted(request))
    }

    /// The request's URL as it is recorded and looked up: without its credentials.
    static func redacted(_ request: Request) -> String {
        request.redactedURL?.absoluteString ?? ""
    }

    /// A file name that names the exchange and is the same in every run: the method (at most 20 characters), the
    /// path (at most 80), a hash of the whole key, and the turn from the second on.
    ///
    /// The method and the path keep only their ASCII letters, digits, `_` and `-`, so the name is never a path (a
    /// method `../x` would leave the directory) and stays within the file system's 255 bytes.
    var fileName: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: Swift's own hashing changes from run to run
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let path = Self.fileNamePart((URL(string: url)?.path ?? "").split(separator: "/").joined(separator: "_"), 80)
        let suffix = turn.map { $0 > 1 ? "-\($0)" : "" } ?? ""
        let method = Self.fileNamePart(method, 20).uppercased()
        return "\(method)-\(path.isEmpty ? "root" : path)-\(String(hash, radix: 16))\(suffix).json"
    }

    /// The first `limit` Unicode scalars of `text`, each that isn't an ASCII letter, digit, `_` or `-` replaced by `-`.
    private static func fileNamePart(_ text: String, _ limit: Int) -> String {
        let kept = text.unicodeScalars.prefix(limit).map { scalar -> Unicode.Scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-": scalar
            default: "-"
            }
        }
        return String(String.UnicodeScalarView(kept))
    }
}
