// Generated from README.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// README.md:5, block 1
import Foundation
import ResourceKit

private struct Episode: Codable, Sendable, Equatable {
    var id: String
    var title: String
}

private struct Media: Codable, Sendable, Equatable {
    var episodeID: String
    var videoURL: URL
}

private let baseURL = URL(string: "https://api.example.com")!

private extension Episode {
    static let all = Resource<[Episode]>(get: baseURL.appendingPathComponent("episodes"))

    var media: Resource<Media> {
        Resource(get: baseURL.appendingPathComponent("episodes/\(id)/media"))
    }
}

// README.md:30, block 2
@MainActor private func readmeSnippet2() async throws {
    let webservice = Webservice()
    let episodes = try await webservice.load(Episode.all)
    let media = try await webservice.load(episodes[0].media)
    print(media.videoURL)
    _ = (webservice, episodes, media)
}

// README.md:41, block 3
import Testing

@Test private func episodesParseFromAFixture() throws {
    let fixture = Data(#"[{"id": "1", "title": "Networking"}]"#.utf8)
    #expect(try Episode.all.parse(fixture) == [Episode(id: "1", title: "Networking")])
}

// README.md:96, block 4
// Not compiled: a Package.swift fragment.

// README.md:109, block 5
// Not compiled: a Package.swift fragment.

// README.md:113, block 6
#if AsyncHTTPClient
@MainActor private func readmeSnippet6() async throws {
    let webservice = Webservice(transport: AsyncHTTPClientTransport())
    _ = (webservice)
}
#endif
