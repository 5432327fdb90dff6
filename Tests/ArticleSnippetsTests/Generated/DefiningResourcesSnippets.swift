// Generated from Sources/ResourceKit/ResourceKit.docc/DefiningResources.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// DefiningResources.md:13, block 1
private struct Episode: Codable, Sendable, Equatable { var id: String; var title: String }
private struct Media: Codable, Sendable, Equatable { var episodeID: String; var videoURL: URL }

private let baseURL = URL(string: "https://api.example.com")!

private extension Episode {
    static let all = Resource<[Episode]>(get: baseURL.appendingPathComponent("episodes"))
    var media: Resource<Media> { Resource(get: baseURL.appendingPathComponent("episodes/\(id)/media")) }
}

// DefiningResources.md:45, block 2
@MainActor private func definingResourcesSnippet2() async throws {
    let settings = Resource<AppSettings>(url: settingsURL, propertyListDecoder: PropertyListDecoder())
    let export = Resource<Data>(url: baseURL.appendingPathComponent("export.zip"))
    let terms = Resource<String>(url: baseURL.appendingPathComponent("terms.txt"), textEncoding: .utf8)
    let delete = try Resource<Void>(url: baseURL.appendingPathComponent("episodes/42"), method: .delete)
    _ = (settings, export, terms, delete)
}

// DefiningResources.md:56, block 3
private struct Page { var episodes: [Episode]; var next: String? }

@MainActor private func definingResourcesSnippet3() async throws {
    let page = Resource<Page>(url: baseURL.appendingPathComponent("episodes"), parse: { data, response in
        Page(episodes: try JSONDecoder().decode([Episode].self, from: data),
             next: response?.value(forHTTPHeaderField: "Link"))
    })
    _ = (page)
}

// DefiningResources.md:76, block 4
@MainActor private func definingResourcesSnippet4() async throws {
    let draft = Episode(id: "42", title: "Networking")
    let create = try Resource<Episode>(url: baseURL.appendingPathComponent("episodes"), method: .post(draft))
    let rename = try Resource<Episode>(
        url: baseURL.appendingPathComponent("episodes/42"), method: .patch(["title": "Networking, Part 2"]))
    let cover = try Resource<Void>(
        url: baseURL.appendingPathComponent("episodes/42/cover"),
        method: .put(.multipart([.file("cover", filename: "cover.png", contentType: "image/png", data: png)])))
    _ = (draft, create, rename, cover)
}

// DefiningResources.md:95, block 5
@MainActor private func definingResourcesSnippet5() async throws {
    // {"feed": {"title": "Swift Talk", "entry": [{"id": "1", "title": "Networking"}, …]}}
    let entries = Resource<[Episode]>(get: baseURL.appendingPathComponent("feed"), at: ["feed", "entry"])
    let newest = Resource<Episode>(get: baseURL.appendingPathComponent("feed"), at: ["feed", "entry", "0"])
    _ = (entries, newest)
}

// DefiningResources.md:129, block 6
@MainActor private func definingResourcesSnippet6() async throws {
    let lenientFeed = Resource<LenientArray<Episode>>(get: baseURL.appendingPathComponent("feed"), at: ["feed", "entry"])
    let feed = try await webservice.load(lenientFeed)
    for line in feed.failureDescriptions {
        logger.warning("Skipped \(line)")  // element 2: missing key "title" at .feed.entry[2]
    }
    _ = (lenientFeed, feed)
}

// DefiningResources.md:152, block 7
@MainActor private func definingResourcesSnippet7() async throws {
    let titles = Resource<[String]>(url: baseURL.appendingPathComponent("episodes"), parseJSON: { json in
        (json as? [[String: Any]])?.compactMap { $0["title"] as? String }
    })
    _ = (titles)
}

// DefiningResources.md:168, block 8
@MainActor private func definingResourcesSnippet8() async throws {
    var search = Resource<[Episode]>(get: baseURL.appendingPathComponent("search"))
    search.queryItems = [URLQueryItem(name: "q", value: "C++ & Swift"), URLQueryItem(name: "tag", value: "swift")]
    // https://api.example.com/search?q=C%2B%2B%20%26%20Swift&tag=swift
    _ = (search)
}

// DefiningResources.md:178, block 9
@MainActor private func definingResourcesSnippet9() async throws {
    var mine = Episode.all
    mine.headers["Authorization"] = "Bearer \(token)"
    _ = (mine)
}

// DefiningResources.md:195, block 10
@MainActor private func definingResourcesSnippet10() async throws {
    var page = Resource<Data>(url: baseURL.appendingPathComponent("page"))
    page.acceptableStatusCodes = [200, 304]  // also accept 304 Not Modified
    page.acceptableStatusCodes = 200...299
    _ = (page)
}

// DefiningResources.md:207, block 11
@MainActor private func definingResourcesSnippet11() async throws {
    let episodeTitles: Resource<[String]> = Episode.all.map { $0.map(\.title) }
    _ = (episodeTitles)
}

// DefiningResources.md:216, block 12
private extension JSONDecoder {
    static var api: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

private struct APIError: Error, Decodable {
    var message: String
}

extension Resource where A: Decodable & SendableMetatype {
    init(api path: String) {
        self = Resource(get: URL(string: path)!, decoder: .api).decodingAPIErrors(as: APIError.self, decoder: .api)
    }
}

private extension Episode {
    static let latest = Resource<[Episode]>(api: "episodes/latest")
}

// DefiningResources.md:250, block 13
private struct Podcast: Decodable, Sendable {
    var id: Int
    var name: String
    static let collectionURL = baseURL.appendingPathComponent("podcasts")
    static let all = Resource<[Podcast]>(get: collectionURL)
    static func one(id: Int) throws(WebserviceError) -> Resource<Podcast> {
        try Resource(get: collectionURL, item: id)
    }
}

@MainActor private func definingResourcesSnippet13() async throws {
    let podcasts = try await webservice.load(Podcast.all)
    let first = try await webservice.load(Podcast.one(id: 1))
    _ = (podcasts, first)
}
