// Generated from README.md by READMETests; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// README block 1
import Foundation
import ResourceKit

struct Episode: Codable, Sendable, Equatable {
    var id: String
    var title: String
}

struct Media: Codable, Sendable, Equatable {
    var episodeID: String
    var videoURL: URL
}

let baseURL = URL(string: "https://api.example.com")!

extension Episode {
    static let all = Resource<[Episode]>(get: baseURL.appendingPathComponent("episodes"))

    var media: Resource<Media> {
        Resource(get: baseURL.appendingPathComponent("episodes/\(id)/media"))
    }
}

// README block 2
func readmeSnippet2() async throws {
    let webservice = Webservice()
    let episodes = try await webservice.load(Episode.all)
    let media = try await webservice.load(episodes[0].media)
    print(media.videoURL)
}

// README block 3
import Testing

@Test func episodesParseFromAFixture() throws {
    let fixture = Data(#"[{"id": "1", "title": "Networking"}]"#.utf8)
    #expect(try Episode.all.parse(fixture) == [Episode(id: "1", title: "Networking")])
}
