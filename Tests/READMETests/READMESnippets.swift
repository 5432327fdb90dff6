// Generated from README.md by READMETests; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// README block 1
import Foundation
import ResourceKit

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
}

// README block 2
func readmeSnippet2() async throws {
    let webservice = Webservice()
    let episodes = try await webservice.load(Episode.all)
    let media = try await webservice.load(episodes[0].media)
    print(media.videoURL)
}

// README block 3
func myEpisodes(token: String) -> Resource<[Episode]> {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return Resource(
        get: baseURL.appendingPathComponent("me/episodes"),
        headers: ["Authorization": "Bearer \(token)"],
        decoder: decoder
    )
}

// README block 4
struct City {
    var name: String
    var population: Int
}

let cities = Resource<[City]>(url: baseURL.appendingPathComponent("cities"), parseJSON: { json in
    guard let objects = json as? [[String: Any]] else { return nil }
    var cities: [City] = []
    for object in objects {
        guard let name = object["name"] as? String, let population = object["population"] as? Int else {
            return nil
        }
        cities.append(City(name: name, population: population))
    }
    return cities
})

// README block 5
func publish(_ draft: Episode) async throws -> Episode {
    let create = try Resource<Episode>(url: baseURL.appendingPathComponent("episodes"), method: .post(draft))
    return try await Webservice().load(create)
}

func rename(_ episode: Episode, to title: String) throws -> Resource<Episode> {
    var renamed = episode
    renamed.title = title
    return try Resource(url: baseURL.appendingPathComponent("episodes/\(episode.id)"), method: .patch(renamed))
}

// README block 6
let robots = Resource<[String]>(url: URL(string: "https://example.com/robots.txt")!, parse: { data in
    String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
})

// README block 7
let episodeCount: Resource<Int> = Episode.all.map { $0.count }
let titles: Resource<[String]> = Episode.all.map { $0.map(\.title) }

// README block 8
import Testing

@Test func episodesParseFromAFixture() throws {
    let fixture = Data(#"[{"id": "1", "title": "Networking"}]"#.utf8)
    #expect(try Episode.all.parse(fixture) == [Episode(id: "1", title: "Networking")])
}

@Test func notFoundKeepsStatusAndBody() throws {
    let body = Data(#"{"error": "not found"}"#.utf8)
    let response = try #require(HTTPURLResponse(url: baseURL, statusCode: 404, httpVersion: nil, headerFields: nil))
    let error = try #require(throws: WebserviceError.self) { try Episode.all.value(from: body, response: response) }
    #expect(error.statusCode == 404)
    #expect(error.body == body)
}

@Test func createSendsJSON() throws {
    let request = URLRequest(resource: try Resource<Episode>(url: baseURL, method: .post(Episode(id: "2", title: "POST"))))
    #expect(request.httpMethod == "POST")
    #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
}

// README block 9
struct FixtureTransport: Transport {
    var body: Data

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        let url = request.url ?? baseURL
        guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil) else {
            throw URLError(.badServerResponse)
        }
        return (body, response)
    }
}

@Test func loadsThroughAStub() async throws {
    let webservice = Webservice(transport: FixtureTransport(body: Data(#"[{"id": "1", "title": "Networking"}]"#.utf8)))
    #expect(try await webservice.load(Episode.all).count == 1)
}

// README block 10
func loadFeed(with webservice: Webservice) async throws -> [Episode] {
    var feed = Episode.all
    feed.timeout = 10  // seconds; then load throws WebserviceError.transport(URLError(.timedOut))
    return try await webservice.load(feed)
}

// README block 11
struct APIError: Error, Decodable {
    var error: String
    var reason: String
}

func episode(id: String) async throws -> Episode? {
    var one = Resource<Episode>(get: baseURL.appendingPathComponent("episodes/\(id)"))
        .decodingErrors(as: APIError.self)
    one.acceptableStatusCodes = 200..<300  // the default; TABResourceLoader accepted 200..<400
    do {
        return try await Webservice().load(one)
    } catch WebserviceError.serverError(let apiError as APIError, 404, _, _) {
        print(apiError.reason)  // No episode with id 42
        return nil
    }
}

// README block 12
func search(_ text: String) -> Resource<[Episode]> {
    var search = Resource<[Episode]>(get: baseURL.appendingPathComponent("search"))
    search.queryItems = [URLQueryItem(name: "q", value: text), URLQueryItem(name: "tag", value: "swift")]
    return search  // "C++ & Swift" is sent as /search?q=C%2B%2B%20%26%20Swift&tag=swift
}

// README block 13
struct AppSettings: Codable, Sendable {
    var volume: Double
}

let export = Resource<Data>(url: baseURL.appendingPathComponent("export.zip"))  // the body, byte for byte
let terms = Resource<String>(url: baseURL.appendingPathComponent("terms.txt"))  // in the response's charset
let appSettings = Resource<AppSettings>(
    get: baseURL.appendingPathComponent("settings.plist"), propertyListDecoder: PropertyListDecoder())

func deleteEpisode(_ episode: Episode, with webservice: Webservice) async throws {
    let url = baseURL.appendingPathComponent("episodes/\(episode.id)")
    try await webservice.load(Resource<Void>(url: url, method: .delete))  // 204 or any ignored body
}

// README block 14
// {"feed": {"title": "Swift Talk", "entry": [{"id": "1", "title": "Networking"}, …]}}
let feedEntries = Resource<[Episode]>(get: baseURL.appendingPathComponent("feed"), at: ["feed", "entry"])
let newestEntry = Resource<Episode>(get: baseURL.appendingPathComponent("feed"), at: ["feed", "entry", 0])

// One object, an array, or a dictionary of them: which one the server sent, from a single parse.
let episodeSearch = Resource<Payload<Episode>>(get: baseURL.appendingPathComponent("search"))

// Skip the elements that don't decode, and say which and why.
let lenientFeed = Resource<LenientArray<Episode>>(get: baseURL.appendingPathComponent("feed"), at: ["feed", "entry"])

func loadLenientFeed(with webservice: Webservice) async throws -> [Episode] {
    let feed = try await webservice.load(lenientFeed)
    for failure in feed.failures {
        print("Skipped \(failure)")  // Skipped element 2: missing key "title" at .feed.entry[2]
    }
    return feed.elements
}

// README block 15
struct Podcast: RemoteModel, Sendable {
    var id: Int
    var name: String
    static let collectionURL = baseURL.appendingPathComponent("podcasts")
}

@MainActor final class PodcastList {
    let loader: any ResourceLoading  // a Webservice in the app, a fake in tests
    var names: [String] = []
    init(loader: any ResourceLoading = Webservice()) { self.loader = loader }
    func refresh() async throws { names = try await loader.load(Podcast.all).map(\.name) }
}

struct FixtureLoader: ResourceLoading {
    var body: Data
    func load<A>(_ resource: Resource<A>) async throws -> A { try resource.parse(body) }
}

@Test @MainActor func podcastListShowsTheNames() async throws {
    let list = PodcastList(loader: FixtureLoader(body: Data(#"[{"id": 1, "name": "Swift Talk"}]"#.utf8)))
    try await list.refresh()
    #expect(list.names == ["Swift Talk"])
}

// README block 16
let throttledWebservice = Webservice(maxConcurrentLoads: 4)  // the rest wait in call order, cancellably
let responseCache = ResponseCache(byteLimit: 10_000_000)  // GET responses marked max-age=N, for N seconds
let cachingWebservice = Webservice(cache: responseCache)

func bundledEpisodes() async throws -> [Episode] {
    guard let file = Bundle.main.url(forResource: "episodes", withExtension: "json") else { return [] }
    return try await Webservice(transport: FileTransport()).load(Resource<[Episode]>(get: file))  // files only
}

// README block 17
func export(from url: URL) async throws -> Data {
    var export = Resource<Data>(url: url)
    export.maxBodySize = 50_000_000
    return try await Webservice().load(export)
}

// README block 18
func refresh() async -> String {
    do {
        let episodes = try await Webservice().load(Episode.all)
        return "\(episodes.count) episodes"
    } catch let error as WebserviceError where error.statusCode == 401 {
        return "Please sign in again."
    } catch let error as WebserviceError {
        return "Failed: \(error)"  // e.g. The server answered HTTP 503 with 31 bytes of application/json: {…}
    } catch {
        return "Cancelled."
    }
}
