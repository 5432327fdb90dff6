/// The fields of a new episode, or of one that replaces another: the body of `POST /episodes` and
/// `PUT /episodes/:id`.
public struct EpisodeDraft: Encodable, Sendable, Equatable {
    /// The episode's title; the API rejects an empty one.
    public var title: String
    /// A sentence or two about the episode.
    public var synopsis: String

    /// Creates a draft with a title and a synopsis.
    public init(title: String, synopsis: String) {
        self.title = title
        self.synopsis = synopsis
    }
}
