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
