//: [Previous](@previous)
//:
//: # Decodable: resources that describe themselves
//:
//: When the JSON matches a `Decodable` model, `Resource(get:)` needs nothing but the URL. Because it doesn't throw,
//: a model can list its endpoints as properties. The playground's `Sources` folder declares:
//:
//: ```swift
//: extension Episode {
//:     public static let all = Resource<[Episode]>(get: baseURL.appendingPathComponent("episodes"))
//:     public var media: Resource<Media> { Resource(get: baseURL.appendingPathComponent("episodes/\(id)/media")) }
//: }
//: ```
import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

print("Episode.all:", Episode.all.method.name, Episode.all.url, Episode.all.headers)
check(Episode.all.url.path == "/episodes", "Episode.all points at /episodes")
check(Episode.all.headers == ["Accept": "application/json"], "and asks for JSON")

//: Header fields you pass are kept, and `Accept` is still added unless you name it yourself:
let mine = Resource<[Episode]>(
    get: baseURL.appendingPathComponent("me/episodes"),
    headers: ["Authorization": "Bearer playground-token"]
)
check(
    mine.headers == ["Authorization": "Bearer playground-token", "Accept": "application/json"],
    "custom header fields travel alongside Accept"
)

//: ## Loading a list, then a detail
//:
//: The stub server knows the list and the first episode's media:
let episodesJSON = #"[{"id": "1", "title": "Networking"}, {"id": "2", "title": "Loading Resources"}]"#
let mediaJSON = #"{"episodeID": "1", "videoURL": "https://videos.example.com/1.mp4"}"#

let webservice = Webservice(
    transport: StubTransport(routes: [
        "/episodes": StubResponse(body: episodesJSON),
        "/episodes/1/media": StubResponse(body: mediaJSON),
    ])
)

let episodes = try await webservice.load(Episode.all)
print("episodes:", episodes.map(\.title))
check(episodes.map(\.id) == ["1", "2"], "Episode.all decodes the list")

guard let first = episodes.first else { fail("the list is empty") }

//: `media` is a computed property, so each episode builds the resource for its own URL:
let media = try await webservice.load(first.media)
print("media:", media.videoURL)
check(first.media.url.path == "/episodes/1/media", "episode.media points at the episode's own path")
check(media.episodeID == first.id, "and decodes that episode's media")

//: ## Transforming a resource with map
//:
//: `map` builds a new resource for the same request whose model is transformed after parsing. The request doesn't
//: change, only what you get back:
let titles: Resource<[String]> = Episode.all.map { episodes in episodes.map(\.title) }
check(
    titles.url == Episode.all.url && titles.headers == Episode.all.headers,
    "a mapped resource sends the same request"
)

let loadedTitles = try await webservice.load(titles)
print("titles:", loadedTitles)
check(loadedTitles == ["Networking", "Loading Resources"], "and hands back the transformed model")

//: The transform may throw; its error is reported just like a parse error. Here, looking up an episode the list
//: doesn't have:
struct EpisodeNotFound: Error {
    var id: String
}

func episode(withID id: String) -> Resource<Episode> {
    Episode.all.map { episodes in
        guard let episode = episodes.first(where: { $0.id == id }) else { throw EpisodeNotFound(id: id) }
        return episode
    }
}

let second = try await webservice.load(episode(withID: "2"))
check(second.title == "Loading Resources", "a throwing map can pick one element")

do {
    let episode = try await webservice.load(episode(withID: "99"))
    fail("there is no episode 99, yet load returned \(episode)")
} catch let error as WebserviceError {
    print("error:", error)
    check(error.underlyingError is EpisodeNotFound, "an error thrown by map arrives like a parse error")
}

//: ## When the JSON doesn't fit the model
//:
//: A `DecodingError` is wrapped in `WebserviceError.parsing`, whose description says where the JSON went wrong. Here
//: the second episode lacks its title:
let untitled = #"[{"id": "1", "title": "Networking"}, {"id": "2"}]"#
let broken = Webservice(transport: StubTransport(routes: ["/episodes": StubResponse(body: untitled)]))

do {
    let episodes = try await broken.load(Episode.all)
    fail("the second episode has no title, yet load returned \(episodes)")
} catch let error as WebserviceError {
    print("error:", error)
    check(error.underlyingError is DecodingError, "the DecodingError is kept as the underlying error")
    check(error.description.contains(#"missing key "title" at [1]"#), "the description names the key and the path")
}

allChecksPassed("Decodable")
//: [Next](@next)
