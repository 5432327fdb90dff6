import Foundation
import ResourceKit

/// An episode of the show, as the example API returns it.
public struct Episode: Codable, Sendable, Equatable {
    /// The episode's identifier, such as `"1"`.
    public var id: String
    /// The episode's title.
    public var title: String

    /// Creates an episode.
    public init(id: String, title: String) {
        (self.id, self.title) = (id, title)
    }
}

/// Where an episode's video lives.
public struct Media: Codable, Sendable, Equatable {
    /// The identifier of the episode the video belongs to.
    public var episodeID: String
    /// The video's URL.
    public var videoURL: URL
}

/// The root of the example API.
///
/// Nothing is ever sent there: the pages load through ``StubTransport``.
public let baseURL = URL(string: "https://api.example.com")!

extension Episode {
    /// `GET /episodes`: every episode.
    public static let all = Resource<[Episode]>(get: baseURL.appendingPathComponent("episodes"))

    /// `GET /episodes/<id>/media`: this episode's video.
    public var media: Resource<Media> {
        Resource(get: baseURL.appendingPathComponent("episodes/\(id)/media"))
    }
}
