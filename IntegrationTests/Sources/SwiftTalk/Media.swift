import Foundation

/// An episode's video.
public struct Media: Codable, Sendable, Equatable {
    /// The identifier of the episode the video belongs to.
    public var episodeID: String
    /// Where the video file is.
    public var videoURL: URL
    /// The video's length in seconds.
    public var durationSeconds: Int

    /// Creates a media description.
    ///
    /// - Parameters:
    ///   - episodeID: The identifier of the episode the video belongs to.
    ///   - videoURL: Where the video file is.
    ///   - durationSeconds: The video's length in seconds.
    public init(episodeID: String, videoURL: URL, durationSeconds: Int) {
        self.episodeID = episodeID
        self.videoURL = videoURL
        self.durationSeconds = durationSeconds
    }
}
