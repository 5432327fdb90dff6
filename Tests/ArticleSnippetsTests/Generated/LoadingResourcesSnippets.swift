// Generated from Sources/ResourceKit/ResourceKit.docc/LoadingResources.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// LoadingResources.md:13, block 1
@MainActor private func loadingResourcesSnippet1() async throws {
    let webservice = Webservice()
    let episodes = try await webservice.load(Episode.all)
    let media = try await webservice.load(episodes[0].media)
    _ = (webservice, episodes, media)
}

// LoadingResources.md:34, block 2
@MainActor private func loadingResourcesSnippet2() async throws {
    let configuration = URLSessionConfiguration.default
    configuration.httpAdditionalHeaders = ["Authorization": "Bearer \(token)"]
    let webservice = Webservice(
        transport: URLSessionTransport(configuration: configuration),
        maxConcurrentLoads: 4,
        cache: ResponseCache(byteLimit: 10_000_000)
    )
    _ = (configuration, webservice)
}

// LoadingResources.md:55, block 3
private extension Episode {
    static let recent = Resource<[Episode]>(get: URL(string: "episodes?sort=recent")!)
}

@MainActor private func loadingResourcesSnippet3() async throws {
    let staging = Webservice(baseURL: URL(string: "https://staging.example.com/v1")!)
    let recent = try await staging.load(Episode.recent)  // GET https://staging.example.com/v1/episodes?sort=recent
    print(recent.count)
    _ = (staging, recent)
}

// LoadingResources.md:82, block 4
@MainActor private func loadingResourcesSnippet4() async throws {
    let (episodes, response) = try await webservice.load(Episode.all.withResponse)
    if response.value(forHTTPHeaderField: "X-RateLimit-Remaining") == "0" {
        print("\(episodes.count) episodes; slow down")
    }
}

// LoadingResources.md:116, block 5
@MainActor private func loadingResourcesSnippet5() async throws {
    var feed = Episode.all
    feed.timeout = 10  // seconds
    _ = (feed)
}

// LoadingResources.md:133, block 6
@MainActor private func loadingResourcesSnippet6() async throws {
    var export = Resource<Data>(url: exportURL)
    export.maxBodySize = 50_000_000
    let bytes = try await webservice.load(export)
    _ = (export, bytes)
}

// LoadingResources.md:164, block 7
@MainActor private func loadingResourcesSnippet7() async throws {
    let task = Task { try await webservice.load(Episode.all) }
    task.cancel()
    // `try await task.value` throws CancellationError.
    _ = (task)
}

// LoadingResources.md:178, block 8
@MainActor private final class PodcastList {
    let loader: any ResourceLoading  // a Webservice in the app, a fake in tests
    var names: [String] = []
    init(loader: any ResourceLoading = Webservice()) { self.loader = loader }
    func refresh() async throws { names = try await loader.load(Podcast.all).map(\.name) }
}
