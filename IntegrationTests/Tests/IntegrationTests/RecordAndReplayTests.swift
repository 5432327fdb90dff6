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
            let recording = Webservice(transport: RecordingTransport(kind.webservice().transport, to: directory))
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
            let recording = Webservice(transport: RecordingTransport(kind.webservice().transport, to: directory))
            for try await page in recording.pages(of: try #require(first)) { recorded.append(page) }
        }
        #expect(recorded == [[1, 2], [3, 4], [5, 6], [7]])

        var replayed: [[Int]] = []
        let replay = Webservice(transport: try ReplayTransport(from: directory))
        for try await page in replay.pages(of: try #require(first)) { replayed.append(page) }
        #expect(replayed == recorded)
    }
}
