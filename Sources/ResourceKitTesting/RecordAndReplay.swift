import Foundation
import ResourceKit

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
/// fields keep their values only when they are known to carry none, and a text body has its credential fields masked.
public struct RecordingTransport: Transport {
    private let transport: any Transport
    private let directory: URL

    /// Records the exchanges `transport` makes into `directory`, which is created if needed.
    public init(_ transport: any Transport, to directory: URL) {
        self.transport = transport
        self.directory = directory
    }

    /// Sends `request` through the wrapped transport, saves the exchange, and returns it.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        let (body, response) = try await transport.data(for: request)
        guard let http = response as? HTTPURLResponse else { return (body, response) }
        let exchange = RecordedExchange(request, response: http, body: body)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(exchange).write(to: directory.appendingPathComponent(exchange.fileName), options: .atomic)
        return (body, response)
    }
}

/// A `Transport` that answers from the fixture files a ``RecordingTransport`` saved, by method and URL.
///
/// A request with no recorded exchange fails with `URLError(.unsupportedURL)` naming it.
public struct ReplayTransport: Transport {
    private let exchanges: [String: RecordedExchange]

    /// Reads every exchange recorded in `directory`.
    public init(from directory: URL) throws {
        var exchanges: [String: RecordedExchange] = [:]
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        for file in files where file.pathExtension == "json" {
            let exchange = try JSONDecoder().decode(RecordedExchange.self, from: Data(contentsOf: file))
            exchanges[exchange.key] = exchange
        }
        self.exchanges = exchanges
    }

    /// The recorded response to `request`.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        let key = RecordedExchange.key(method: request.httpMethod ?? "GET", url: RecordedExchange.redacted(request))
        guard let exchange = exchanges[key], let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: exchange.status, httpVersion: "HTTP/1.1", headerFields: exchange.headers)
        else {
            let reason = "No recorded exchange answers \(key)."
            throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason])
        }
        return (exchange.bodyData, response)
    }
}

/// One exchange as a fixture file holds it.
struct RecordedExchange: Codable {
    var method: String
    var url: String
    var status: Int
    var headers: [String: String]
    /// The body as text, when it is UTF-8.
    var body: String?
    /// The body in base64, when it is not text.
    var bodyBase64: String?

    init(_ request: URLRequest, response: HTTPURLResponse, body: Data) {
        method = request.httpMethod ?? "GET"
        url = Self.redacted(request)
        status = response.statusCode
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in response.allHeaderFields {
            headers[name] = isSafeHeader(name) ? Redaction.scrub(value) : Redaction.mark
        }
        self.headers = headers
        if let text = String(data: body, encoding: .utf8) {
            self.body = Redaction.scrub(text, removing: Redaction.secrets(of: request))
        } else {
            bodyBase64 = body.base64EncodedString()
        }
    }

    var bodyData: Data {
        body.map { Data($0.utf8) } ?? bodyBase64.flatMap { Data(base64Encoded: $0) } ?? Data()
    }

    /// What a replayed request is found by.
    var key: String { Self.key(method: method, url: url) }

    static func key(method: String, url: String) -> String { "\(method.uppercased()) \(url)" }

    /// The request's URL as it is recorded and looked up: without its credentials.
    static func redacted(_ request: URLRequest) -> String {
        request.url.flatMap { Redaction.redacted($0, removing: Redaction.secrets(of: request)) }?.absoluteString ?? ""
    }

    /// A file name that names the exchange and is the same in every run: the method, the path, and a hash of the
    /// whole key.
    var fileName: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: Swift's own hashing changes from run to run
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let path = (URL(string: url)?.path ?? "").split(separator: "/").joined(separator: "_").prefix(80)
        let readable = String(path.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" ? $0 : "-" })
        return "\(method.uppercased())-\(readable.isEmpty ? "root" : readable)-\(String(hash, radix: 16)).json"
    }
}
