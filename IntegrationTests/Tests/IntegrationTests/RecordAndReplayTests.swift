import EpisodesService
import Foundation
import ResourceKit
import ResourceKitTesting
import SwiftTalk
import Testing

/// The testing kit's record and replay against the real server: what is recorded from it is served again once it is
/// gone, with the same models, and without the credential the requests carried.
@Suite(.timeLimit(.minutes(1))) struct RecordAndReplayTests {
    @Test(arguments: TransportKind.allCases)
    func exchangesRecordedFromTheServerAreServedAfterItStops(kind: TransportKind) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var recorded: ([Episode], Account)?
        var base: URL?
        try await withServer { url in
            base = url
            let recording = Webservice(transport: RecordingTransport(kind.transport(), to: directory))
            recorded = (
                try await recording.load(Episode.all(at: url)),
                try await recording.load(Account.current(at: url, token: "swift-talk-token"))
            )
        }
        let (episodes, account) = try #require(recorded)
        let url = try #require(base)
        let replay = Webservice(transport: try ReplayTransport(from: directory))
        #expect(try await replay.load(Episode.all(at: url)) == episodes)
        #expect(try await replay.load(Account.current(at: url, token: "swift-talk-token")).name == account.name)
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("swift-talk-token"))
        }
    }

    /// The pages' `Link` header fields are recorded, so the replayed pages lead to each other as the server's did.
    @Test(arguments: TransportKind.allCases)
    func pagesRecordedFromTheServerAreFollowedAgainAfterItStops(kind: TransportKind) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var first: Resource<[Int]>?
        var recorded: [[Int]] = []
        try await using(EpisodesServer.start(configure: { $0.addTransferRoutes() })) { base in
            first = Resource<[Int]>(get: base / "pages?count=7")
            let recording = Webservice(transport: RecordingTransport(kind.transport(), to: directory))
            for try await page in recording.pages(of: try #require(first)) { recorded.append(page) }
        }
        #expect(recorded == [[1, 2], [3, 4], [5, 6], [7]])

        var replayed: [[Int]] = []
        let replay = Webservice(transport: try ReplayTransport(from: directory))
        for try await page in replay.pages(of: try #require(first)) { replayed.append(page) }
        #expect(replayed == recorded)
    }

    /// The server repeats in its body the token `Authentication` added, also with a combining mark after it, and a
    /// cookie's value, neither of them a whole header value: no recorded file holds either, in the request's fields or
    /// in the body, as text or in base64.
    @Test(arguments: TransportKind.allCases, ["tok-SECRET", "tok-SECRET\u{301}"])
    func credentialsTheServerRepeatsAreNotRecorded(kind: TransportKind, token: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withServer { base in
            let recording = Webservice(
                transport: RecordingTransport(kind.transport(), to: directory),
                middleware: [Authentication(for: [base]) { _ in "Bearer \(token)" }])
            let echo = Resource<[String: String]>(get: base / "faults/headers", headers: ["Cookie": "sid=COOKIE"])
            let received = try await recording.load(echo)
            #expect(
                received["authorization"].map { Array($0.unicodeScalars) } == Array("Bearer \(token)".unicodeScalars))
            #expect(received["cookie"] == "sid=COOKIE")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 1)
        for file in files {
            let recorded = try Data(contentsOf: directory.appendingPathComponent(file))
            let exchange = try #require(try JSONSerialization.jsonObject(with: recorded) as? [String: Any])
            let body = try #require(
                (exchange["body"] as? String).map { Data($0.utf8) }
                    ?? (exchange["bodyBase64"] as? String).flatMap { Data(base64Encoded: $0) })
            #expect(body.contains(bytesOf: "\"authorization\""), "not the server's echo: \(exchange)")
            for secret in ["tok-SECRET", "COOKIE"] {
                #expect(!recorded.contains(bytesOf: secret) && !body.contains(bytesOf: secret), "\(secret) in \(file)")
            }
        }
    }
}
