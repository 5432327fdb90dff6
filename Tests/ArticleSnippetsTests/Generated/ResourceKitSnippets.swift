// Generated from Sources/ResourceKit/ResourceKit.docc/ResourceKit.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// ResourceKit.md:12, block 1
private struct Episode: Codable, Sendable, Equatable { var id: String; var title: String }
private struct Media: Codable, Sendable, Equatable { var episodeID: String; var videoURL: URL }

private let baseURL = URL(string: "https://api.example.com")!

private extension Episode {
    static let all = Resource<[Episode]>(get: baseURL.appendingPathComponent("episodes"))
    var media: Resource<Media> { Resource(get: baseURL.appendingPathComponent("episodes/\(id)/media")) }
}

// ResourceKit.md:27, block 2
@MainActor private func resourceKitSnippet2() async throws {
    let webservice = Webservice()
    let episodes = try await webservice.load(Episode.all)
    let media = try await webservice.load(episodes[0].media)
    _ = (webservice, episodes, media)
}
