/// The fields to change in an episode: the body of `PATCH /episodes/:id`.
///
/// Only the fields that are not `nil` are encoded, so `EpisodePatch(title: "New")` sends `{"title":"New"}`.
public struct EpisodePatch: Encodable, Sendable, Equatable {
    /// The new title, or `nil` to keep the current one.
    public var title: String?
    /// The new synopsis, or `nil` to keep the current one.
    public var synopsis: String?

    /// Creates a patch.
    ///
    /// - Parameters:
    ///   - title: The new title, or `nil` to keep the current one.
    ///   - synopsis: The new synopsis, or `nil` to keep the current one.
    public init(title: String? = nil, synopsis: String? = nil) {
        self.title = title
        self.synopsis = synopsis
    }

    private enum CodingKeys: String, CodingKey {
        case title, synopsis
    }

    /// Encodes the fields that are not `nil`.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's errors.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(synopsis, forKey: .synopsis)
    }
}
