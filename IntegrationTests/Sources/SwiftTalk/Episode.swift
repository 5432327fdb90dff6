import Foundation

/// A Swift Talk episode, as the Episodes API describes it.
public struct Episode: Codable, Sendable, Equatable, Identifiable {
    /// The episode's identifier in the API, such as `"1"`.
    public var id: String
    /// The episode's number in the series, starting at 1.
    public var number: Int
    /// The episode's title.
    public var title: String
    /// A sentence or two about the episode.
    public var synopsis: String
    /// The episode's own URL: where it is read, replaced, updated and deleted.
    public var url: URL
    /// Where the episode's video is described.
    public var mediaURL: URL

    /// Creates an episode from its fields.
    ///
    /// - Parameters:
    ///   - id: The episode's identifier.
    ///   - number: The episode's number in the series.
    ///   - title: The episode's title.
    ///   - synopsis: A sentence or two about the episode.
    ///   - url: The episode's own URL.
    ///   - mediaURL: Where the episode's video is described.
    public init(id: String, number: Int, title: String, synopsis: String, url: URL, mediaURL: URL) {
        self.id = id
        self.number = number
        self.title = title
        self.synopsis = synopsis
        self.url = url
        self.mediaURL = mediaURL
    }
}
