import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// Where a ``ResponseCache`` keeps its entries: in memory, in a directory, or in a store of yours, such as one a fleet
/// of servers shares (``ResponseCache/init(storage:byteLimit:now:)``).
///
/// A storage keeps entries by key, within a limit of its own, dropping the least recently used to make room; the cache
/// decides what is stored and when it answers, and calls its storage one call at a time, on a serial queue of its own,
/// never on Swift's cooperative pool. Reading an entry counts as a use. A storage of yours gets only what a store
/// several processes share may keep: a response to a request without credentials (no header field that isn't safe,
/// no credential in its URL) and not `Cache-Control: private`. The cache keeps the others in memory, as it does a
/// response kept for one web service alone (``ResponseCache/Key/service``). See <doc:Caching>.
public protocol CacheStorage: Sendable {
    /// The bytes the entries take, counted against the limit.
    var byteCount: Int { get }
    /// The number of entries.
    var count: Int { get }
    /// The entry for `key`, counted as a use; `nil` when there is none or it can't be read (it is then dropped).
    mutating func entry(for key: ResponseCache.Key) -> ResponseCache.Entry?
    /// Stores `entry` under `key`, replacing what was there and dropping the least recently used entries to make room;
    /// an entry larger than the whole limit, or one that can't be written, is not stored.
    mutating func insert(_ entry: ResponseCache.Entry, for key: ResponseCache.Key)
    /// Drops the entry for `key`, if there is one.
    mutating func remove(_ key: ResponseCache.Key)
    /// Drops every entry whose key's URL is `url`, whatever its header fields.
    mutating func removeAll(url: String)
    /// Drops every entry.
    mutating func removeAll() throws
}

/// A storage of the app's, which may be shared, beside the entries it must never get, in memory: responses to
/// requests with credentials, `private` ones, and those kept for one web service alone.
struct ScopedInMemory<Shared: CacheStorage>: CacheStorage {
    var shared: Shared
    var scoped: MemoryStorage

    var byteCount: Int { Self.sum(shared.byteCount, scoped.byteCount) }
    var count: Int { Self.sum(shared.count, scoped.count) }

    /// `first + second`, or `Int.max` when the app's storage reports so much that it overflows.
    private static func sum(_ first: Int, _ second: Int) -> Int {
        let (sum, overflow) = first.addingReportingOverflow(second)
        return overflow ? .max : sum
    }

    /// Whether `key` may go to the app's storage: for any web service, and without credentials.
    private static func isShareable(_ key: ResponseCache.Key) -> Bool {
        key.service == nil && key.secrets.isEmpty
    }

    mutating func entry(for key: ResponseCache.Key) -> ResponseCache.Entry? {
        scoped.entry(for: key) ?? (Self.isShareable(key) ? shared.entry(for: key) : nil)
    }

    mutating func insert(_ entry: ResponseCache.Entry, for key: ResponseCache.Key) {
        if Self.isShareable(key), !entry.response.cacheControl.isPrivate {
            scoped.remove(key)
            shared.insert(entry, for: key)
        } else {
            scoped.insert(entry, for: key)
        }
    }

    mutating func remove(_ key: ResponseCache.Key) {
        scoped.remove(key)
        if Self.isShareable(key) { shared.remove(key) }
    }

    mutating func removeAll(url: String) {
        shared.removeAll(url: url)
        scoped.removeAll(url: url)
    }

    mutating func removeAll() throws {
        scoped.removeAll()
        try shared.removeAll()
    }
}

/// The entries of an in-memory ``ResponseCache``, in the order they were last used.
struct MemoryStorage: CacheStorage {
    private let byteLimit: Int
    private var entries = RecencyList<ResponseCache.Key, (entry: ResponseCache.Entry, cost: Int)>()
    private(set) var byteCount = 0

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    var count: Int { entries.count }

    mutating func entry(for key: ResponseCache.Key) -> ResponseCache.Entry? {
        entries.use(key)
        return entries[key]?.entry
    }

    mutating func insert(_ entry: ResponseCache.Entry, for key: ResponseCache.Key) {
        remove(key)
        let cost = key.byteCount + entry.response.byteCount
        guard cost <= byteLimit else { return }
        while byteCount + cost > byteLimit, let oldest = entries.leastRecentlyUsedKey {
            remove(oldest)
        }
        entries.insert((entry, cost), for: key)
        byteCount += cost
    }

    mutating func remove(_ key: ResponseCache.Key) {
        if let removed = entries.removeValue(forKey: key) { byteCount -= removed.cost }
    }

    mutating func removeAll(url: String) {
        for key in entries.keys.filter({ $0.url == url }) { remove(key) }
    }

    mutating func removeAll() {
        entries.removeAll()
        byteCount = 0
    }
}
