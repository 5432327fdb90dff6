import Foundation
import ResourceKit

// What many articles' snippets use without declaring it. A snippet's own declaration of a name shadows these.

/// The articles' model (<doc:DefiningResources> declares it; the others use it).
public struct Episode: Codable, Sendable, Equatable {
    /// The episode's identifier.
    public var id: String
    /// The episode's title.
    public var title: String

    /// An episode.
    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    /// Every episode.
    public static let all = Resource<[Episode]>(get: baseURL.appendingPathComponent("episodes"))

    /// The episode's media.
    public var media: Resource<Media> { Resource(get: baseURL.appendingPathComponent("episodes/\(id)/media")) }
}

/// An episode's media.
public struct Media: Codable, Sendable, Equatable {
    /// The episode's identifier.
    public var episodeID: String
    /// Where its video is.
    public var videoURL: URL
}

/// A podcast (<doc:DefiningResources> declares it; <doc:LoadingResources> and <doc:TestingParses> use it).
public struct Podcast: Decodable, Sendable {
    /// The podcast's identifier.
    public var id: Int
    /// The podcast's name.
    public var name: String
    /// Every podcast.
    public static let all = Resource<[Podcast]>(get: baseURL.appendingPathComponent("podcasts"))
}

/// A receipt for an upload (<doc:SendingForms> declares it; <doc:TransferringFiles> uses it).
public struct Receipt: Decodable, Sendable {
    /// The upload's identifier.
    public var id: String
}

/// The server the articles' resources are on.
public let baseURL = URL(string: "https://api.example.com")!

/// The web service the articles load with.
public let webservice = Webservice()

/// A bearer token.
public let token = "token"

/// The articles' ``Authentication``.
public let authentication = Authentication(for: [baseURL]) { _ in "Bearer \(token)" }

/// A password.
public let password = "password"

/// A logger, as `os.Logger` or swift-log's `Logger` offer one.
public let logger = Log()

/// The logger <doc:Observability> names `log`.
public let log = logger

/// A log's levels, each taking an interpolated message.
public struct Log: Sendable {
    /// Logs at the info level.
    public func info(_ message: @autoclosure () -> String) {}
    /// Logs at the notice level.
    public func notice(_ message: @autoclosure () -> String) {}
    /// Logs a warning.
    public func warning(_ message: @autoclosure () -> String) {}
    /// Logs an error.
    public func error(_ message: @autoclosure () -> String) {}
}
