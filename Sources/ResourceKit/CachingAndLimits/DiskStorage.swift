import Foundation

/// The entries of a persistent ``ResponseCache``: one file each in a directory. (Placeholder, being written.)
struct DiskStorage: CacheStorage {
    init(directory: URL, byteLimit: Int) throws {
        throw CocoaError(.featureUnsupported)
    }

    var byteCount: Int { 0 }
    var count: Int { 0 }
    mutating func entry(for key: ResponseCache.Key) -> ResponseCache.Entry? { nil }
    mutating func insert(_ entry: ResponseCache.Entry, for key: ResponseCache.Key) {}
    mutating func remove(_ key: ResponseCache.Key) {}
    mutating func removeAll(url: String) {}
    mutating func removeAll() throws {}
}
