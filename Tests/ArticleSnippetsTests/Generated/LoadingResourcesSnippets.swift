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

// LoadingResources.md:33, block 2
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

// LoadingResources.md:68, block 3
@MainActor private func loadingResourcesSnippet3() async throws {
    var feed = Episode.all
    feed.timeout = 10  // seconds
    _ = (feed)
}

// LoadingResources.md:85, block 4
@MainActor private func loadingResourcesSnippet4() async throws {
    var export = Resource<Data>(url: exportURL)
    export.maxBodySize = 50_000_000
    let bytes = try await webservice.load(export)
    _ = (export, bytes)
}

// LoadingResources.md:116, block 5
@MainActor private func loadingResourcesSnippet5() async throws {
    let task = Task { try await webservice.load(Episode.all) }
    task.cancel()
    // `try await task.value` throws CancellationError.
    _ = (task)
}

// LoadingResources.md:130, block 6
@MainActor private final class PodcastList {
    let loader: any ResourceLoading  // a Webservice in the app, a fake in tests
    var names: [String] = []
    init(loader: any ResourceLoading = Webservice()) { self.loader = loader }
    func refresh() async throws { names = try await loader.load(Podcast.all).map(\.name) }
}
