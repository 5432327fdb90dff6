import Foundation
import ResourceKit

/// The Swift Talk seed's model: resources live on the type they load.
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

    static func create(_ episode: Episode) throws -> Resource<Episode> {
        try Resource(url: baseURL.appendingPathComponent("episodes"), method: .post(episode))
    }
}
