/// One episode as the store keeps it: the server's own model, never shared with clients.
struct EpisodeRecord: Sendable, Equatable {
    var id: String
    var number: Int
    var title: String
    var synopsis: String
    var durationSeconds: Int

    /// The three episodes every new store starts with.
    static let seed: [EpisodeRecord] = [
        EpisodeRecord(
            id: "1",
            number: 1,
            title: "Networking",
            synopsis: "We show a way to write a clean and testable networking layer using generics and structs.",
            durationSeconds: 1200
        ),
        EpisodeRecord(
            id: "2",
            number: 2,
            title: "Connecting View Controllers",
            synopsis: "We connect view controllers with callbacks instead of reaching into the storyboard.",
            durationSeconds: 1380
        ),
        EpisodeRecord(
            id: "3",
            number: 3,
            title: "Loading View Controllers",
            synopsis: "We build a generic view controller that loads a resource and shows a spinner meanwhile.",
            durationSeconds: 1560
        ),
    ]
}
