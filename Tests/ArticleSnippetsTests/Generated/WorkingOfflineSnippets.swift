// Generated from Sources/ResourceKit/ResourceKit.docc/WorkingOffline.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// WorkingOffline.md:11, block 1
@MainActor private func workingOfflineSnippet1() async throws {
    let cache = try ResponseCache(directory: cachesURL.appendingPathComponent("responses"), byteLimit: 50_000_000)
    let webservice = Webservice(
        cache: cache,
        middleware: [RetryPolicy(networkWait: 30)]
    )

    var feed = Episode.all
    feed.cachePolicy = .networkElseStored  // the latest when online, the last one seen when not
    let episodes = try await webservice.load(feed)
    _ = (cache, webservice, feed, episodes)
}
