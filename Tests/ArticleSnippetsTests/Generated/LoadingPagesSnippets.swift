// Generated from Sources/ResourceKit/ResourceKit.docc/LoadingPages.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// LoadingPages.md:10, block 1
@MainActor private func loadingPagesSnippet1() async throws {
    var episodes: [Episode] = []
    for try await page in webservice.pages(of: Resource<[Episode]>(get: baseURL.appendingPathComponent("episodes"))) {
        episodes += page
    }
    _ = (episodes)
}

// LoadingPages.md:46, block 2
private struct FeedPage: Decodable, Sendable { var items: [Episode]; var nextCursor: String? }

private let first = Resource<FeedPage>(get: baseURL.appendingPathComponent("feed"))
private let feed = webservice.pages(of: first) { page in
    page.nextCursor.map { cursor in
        var next = first
        next.queryItems = [URLQueryItem(name: "after", value: cursor)]
        return next
    }
}
