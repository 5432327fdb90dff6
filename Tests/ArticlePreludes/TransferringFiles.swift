import Foundation

/// A download's destination.
public let destination = URL(fileURLWithPath: "/var/cache/app/episode-1.mp4")

/// A video to upload.
public let videoURL = URL(fileURLWithPath: "/tmp/video.mp4")

/// The view's model.
@MainActor public let model = DownloadModel()

/// What a view shows of a download.
@MainActor public final class DownloadModel {
    /// How much of the download arrived, from 0 to 1.
    public var fraction = 0.0
}
