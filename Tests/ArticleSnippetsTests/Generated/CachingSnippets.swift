// Generated from Sources/ResourceKit/ResourceKit.docc/Caching.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Caching.md:13, block 1
@MainActor private func cachingSnippet1() async throws {
    let cache = ResponseCache(byteLimit: 10_000_000)  // about 10 MB
    let webservice = Webservice(cache: cache)
    let episodes = try await webservice.load(Episode.all)  // from the network
    let again = try await webservice.load(Episode.all)     // from memory, if the server allowed it
    _ = (cache, webservice, episodes, again)
}

// Caching.md:60, block 2
@MainActor private func cachingSnippet2() async throws {
    var refresh = Episode.all
    refresh.headers["Cache-Control"] = "no-cache"
    let fresh = try await webservice.load(refresh)
    _ = (refresh, fresh)
}

// Caching.md:103, block 3
@MainActor private func cachingSnippet3() async throws {
    let cache = ResponseCache(byteLimit: 5_000_000)
    let (stored, bytes) = (await cache.count, await cache.byteCount)
    print("\(stored) responses, \(bytes) bytes")
    _ = (cache)
}

// Caching.md:126, block 4
private struct SharedStorage: CacheStorage {
    let store: FleetStore  // yours, a `Sendable` client of the shared store
    var byteCount: Int { store.byteCount }
    var count: Int { store.count }
    func entry(for key: ResponseCache.Key) -> ResponseCache.Entry? { store[key] }
    func insert(_ entry: ResponseCache.Entry, for key: ResponseCache.Key) { store[key] = entry }
    func remove(_ key: ResponseCache.Key) { store[key] = nil }
    func removeAll(url: String) { store.removeAll { $0.url == url } }
    func removeAll() throws { try store.clear() }
}
private let webservice = Webservice(cache: ResponseCache(storage: SharedStorage(store: fleet)))
