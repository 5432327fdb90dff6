import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Exchanges recorded to fixture files without credentials, and served again without a server.
@Suite struct RecordAndReplayTests {
    private let base = URL(string: "https://api.example.com")!

    private func withDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    /// The "server": a login that answers a token, and a binary avatar.
    private let server = StubTransport([
        .init(
            "POST", "/login",
            .status(
                200, headers: ["Content-Type": "application/json", "Set-Cookie": "session=c00kie-value"],
                body: Data(#"{"access_token":"t0ken-value","user":"alice"}"#.utf8))),
        .init("GET", "/avatar", .status(200, headers: ["Content-Type": "image/png"], body: Data([0x89, 0x50, 0xFF]))),
    ])

    @Test func recordedExchangesAreServedAgainWithoutTheServer() async throws {
        try await withDirectory { directory in
            var login = Resource<Data>(url: base.appendingPathComponent("login"), method: .post(Data()))
            login.queryItems = [URLQueryItem(name: "api_key", value: "k3y-value")]
            login.headers["Authorization"] = "Bearer b3arer-value"
            let avatar = Resource<Data>(url: base.appendingPathComponent("avatar"))
            let recording = Webservice(transport: RecordingTransport(server, to: directory))
            let live = try await recording.load(login)
            #expect(try await recording.load(avatar) == Data([0x89, 0x50, 0xFF]))

            let replay = Webservice(transport: try ReplayTransport(from: directory))
            #expect(try await replay.load(avatar) == Data([0x89, 0x50, 0xFF]))
            let replayed = try await replay.load(login)
            #expect(String(decoding: live, as: UTF8.self).contains("t0ken-value"))
            #expect(String(decoding: replayed, as: UTF8.self) == #"{"access_token":"REDACTED","user":"alice"}"#)

            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(files.count == 2)
            for file in files {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for secret in ["t0ken-value", "k3y-value", "b3arer-value", "c00kie-value"] {
                    #expect(!text.contains(secret), "\(secret) recorded in \(file)")
                }
            }
        }
    }

    @Test func theFileNamesAreTheSameInEveryRun() async throws {
        try await withDirectory { directory in
            _ = try await RecordingTransport(server, to: directory).data(
                for: Request(url: base.appendingPathComponent("avatar")))
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory.path) == [
                    "GET-avatar-17196967d0747e53.json"
                ])
        }
    }

    @Test func exchangesOfOneRequestAreReplayedInTheOrderRecordedTheLastRepeating() async throws {
        try await withDirectory { directory in
            let server = StubTransport([.init("GET", "/a", .sequence([.json("1"), .json("2")]))])
            let recording = RecordingTransport(server, to: directory)
            let request = Request(url: base.appendingPathComponent("a"))
            for transport in [recording, recording] {
                _ = try await transport.data(for: request)
            }
            let replay = try ReplayTransport(from: directory)
            var answers: [String] = []
            for transport in [replay, replay, replay] {
                answers.append(String(decoding: try await transport.data(for: request).0, as: UTF8.self))
            }
            #expect(answers == ["1", "2", "2"])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                    "GET-a-a69e272d81e71b19-2.json", "GET-a-a69e272d81e71b19.json",
                ])
        }
    }

    @Test func headerFieldsHoldingURLsAreKeptScrubbedAndOthersMasked() async throws {
        try await withDirectory { directory in
            let server = StubTransport([
                .init(
                    "GET", "/items",
                    .status(
                        200,
                        headers: [
                            "Link": #"<https://api.example.com/items?page=2>; rel="next""#,
                            "Set-Cookie": "session=c00kie-value",
                        ])),
                .init(
                    "GET", "/private",
                    .status(200, headers: ["Link": #"<https://api.example.com/private?access_token=abc>; rel="next""#])),
            ])
            let recording = RecordingTransport(server, to: directory)
            for path in ["items", "private"] {
                _ = try await recording.data(for: Request(url: base.appendingPathComponent(path)))
            }
            let replay = try ReplayTransport(from: directory)
            func headers(_ path: String) async throws -> Response {
                try await replay.data(for: Request(url: base.appendingPathComponent(path))).1
            }
            let items = try await headers("items")
            #expect(items.value(forHTTPHeaderField: "Link") == #"<https://api.example.com/items?page=2>; rel="next""#)
            #expect(items.value(forHTTPHeaderField: "Set-Cookie") == "REDACTED")
            #expect(
                try await headers("private").value(forHTTPHeaderField: "Link")
                    == #"<https://api.example.com/private?access_token=REDACTED>; rel="next""#)
        }
    }

    /// A recorded exchange keeps the fields that carry no credential, such as `Connection`, and its `Content-Length`
    /// is that of the recorded body, whose credentials were replaced; it is served again as it was recorded.
    @Test(arguments: [Data(), Data([0xFF])])
    func aRecordingKeepsTheHarmlessFieldsAndTheLengthOfItsBody(prefix: Data) async throws {
        try await withDirectory { directory in
            let echo = StubTransport([
                .init(
                    "GET", "/echo",
                    .computed { request in
                        let body = prefix + Data("token \(request.value(forHTTPHeaderField: "X-Token") ?? "")".utf8)
                        return .status(
                            200,
                            headers: [
                                "Content-Length": "\(body.count)", "Connection": "keep-alive",
                                "Keep-Alive": "timeout=5", "X-Echo": "t0ken-value",
                            ], body: body)
                    })
            ])
            var resource = Resource<Data>(url: base.appendingPathComponent("echo"))
            resource.headers["X-Token"] = "t0ken-value"
            _ = try await Webservice(transport: RecordingTransport(echo, to: directory)).load(resource)
            let replay = Webservice(transport: try ReplayTransport(from: directory))
            let response = try await replay.response(for: resource)
            let body = try await replay.load(resource)
            #expect(body == prefix + Data("token REDACTED".utf8))
            #expect(response.value(forHTTPHeaderField: "Content-Length") == "\(body.count)")
            #expect(response.value(forHTTPHeaderField: "Connection") == "keep-alive")
            #expect(response.value(forHTTPHeaderField: "Keep-Alive") == "timeout=5")
            #expect(response.value(forHTTPHeaderField: "X-Echo") == "REDACTED")
        }
    }

    /// A response without a body — to `HEAD`, a `204`, a `304` — keeps its `Content-Length`: it is the size of the
    /// body a `GET` would have, which a test of `HEAD` reads.
    @Test(arguments: [("HEAD", 200), ("GET", 204), ("GET", 304)])
    func aRecordingWithoutABodyKeepsItsContentLength(method: String, status: Int) async throws {
        try await withDirectory { directory in
            let server = StubTransport([
                .init(method, "/file", .status(status, headers: ["Content-Length": "1234", "ETag": #""v1""#]))
            ])
            let request = Request(method: method, url: base.appendingPathComponent("file"))
            _ = try await RecordingTransport(server, to: directory).data(for: request)
            let (body, response) = try await ReplayTransport(from: directory).data(for: request)
            #expect(body.isEmpty)
            #expect(response.statusCode == status)
            #expect(response.value(forHTTPHeaderField: "Content-Length") == "1234")
        }
    }

    @Test func aBinaryBodyHasTheRequestsSecretsReplaced() async throws {
        try await withDirectory { directory in
            let echo = StubTransport([
                .init(
                    "GET", "/echo",
                    .computed { request in
                        .status(
                            200,
                            body: Data([0xFF]) + Data((request.value(forHTTPHeaderField: "Authorization") ?? "").utf8))
                    })
            ])
            var request = Request(url: base.appendingPathComponent("echo"))
            request.setValue("Bearer s3cr3t-token", forHTTPHeaderField: "Authorization")
            let live = try await RecordingTransport(echo, to: directory).data(for: request).0
            #expect(live == Data([0xFF]) + Data("Bearer s3cr3t-token".utf8))
            let replayed = try await ReplayTransport(from: directory).data(for: request).0
            #expect(replayed == Data([0xFF]) + Data("REDACTED".utf8))
        }
    }

    /// A server that echoes the token of an `Authorization` field that ``Authentication`` added, a cookie's value and
    /// a credential query value, in a text body or (after a byte that isn't UTF-8) a binary one.
    @Test(arguments: [Data(), Data([0xFF])])
    func theCredentialsInsideHeaderValuesAreReplacedWhereverTheyAppear(prefix: Data) async throws {
        try await withDirectory { directory in
            let echoed = "you sent tok-SECRET, COOKIE-ONE and k3y-SECRET"
            let echo = StubTransport([.init("GET", "/echo", .status(200, body: prefix + Data(echoed.utf8)))])
            let authentication = Authentication(for: [base]) { _ in "Bearer tok-SECRET" }
            let webservice = Webservice(
                transport: RecordingTransport(echo, to: directory), middleware: [authentication])
            var resource = Resource<Data>(url: base.appendingPathComponent("echo"))
            resource.queryItems = [URLQueryItem(name: "api_key", value: "k3y-SECRET")]
            resource.headers["Cookie"] = "sid=COOKIE-ONE; theme=light"
            #expect(try await webservice.load(resource) == prefix + Data(echoed.utf8))
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                let recorded = try Data(contentsOf: directory.appendingPathComponent(file))
                let exchange = try #require(try JSONSerialization.jsonObject(with: recorded) as? [String: Any])
                let body = try #require(
                    (exchange["body"] as? String).map { Data($0.utf8) }
                        ?? (exchange["bodyBase64"] as? String).flatMap { Data(base64Encoded: $0) })
                #expect(body == prefix + Data("you sent REDACTED, REDACTED and REDACTED".utf8))
            }
        }
    }

    @Test(arguments: ["../ESCAPED", "/tmp/ESCAPED", "..", String(repeating: "LONG", count: 100)])
    func everyFileLandsInsideTheDirectoryWhateverTheMethod(method: String) async throws {
        try await withDirectory { parent in
            let directory = parent.appendingPathComponent("recorded")
            let server = StubTransport([.init("*", "/**", .json("[]"))])
            var request = Request(url: base.appendingPathComponent("a/../b"))
            request.method = method
            _ = try await RecordingTransport(server, to: directory).data(for: request)
            #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["recorded"])
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(files.count == 1 && files.allSatisfy { !$0.contains("..") && $0.utf8.count <= 255 }, "\(files)")
            #expect(try await ReplayTransport(from: directory).data(for: request).0 == Data("[]".utf8))
        }
    }

    @Test func aLongNonASCIIPathRecordsAndReplays() async throws {
        try await withDirectory { directory in
            let request = Request(url: base.appendingPathComponent(String(repeating: "語", count: 100)))
            let server = StubTransport([.init("GET", "/**", .json("[]"))])
            _ = try await RecordingTransport(server, to: directory).data(for: request)
            #expect(try await ReplayTransport(from: directory).data(for: request).0 == Data("[]".utf8))
        }
    }

    @Test func aRequestNeverRecordedFailsNamingIt() async throws {
        try await withDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let replay = Webservice(transport: try ReplayTransport(from: directory))
            let error = try await #require(throws: WebserviceError.self) {
                try await replay.load(Resource<Data>(url: base.appendingPathComponent("missing")))
            }
            #expect(error.description.contains("No recorded exchange answers GET https://api.example.com/missing"))
        }
    }
}
