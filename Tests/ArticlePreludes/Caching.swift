import Foundation
import ResourceKit

/// A client of a store a fleet of servers shares, such as Redis.
public final class FleetStore: Sendable {
    /// The bytes the store holds.
    public var byteCount: Int { 0 }
    /// The entries the store holds.
    public var count: Int { 0 }

    /// The entry stored for a key.
    public subscript(key: ResponseCache.Key) -> ResponseCache.Entry? {
        get { nil }
        set {}
    }

    /// Removes the entries whose keys match.
    public func removeAll(where shouldRemove: (ResponseCache.Key) -> Bool) {}

    /// Removes every entry.
    public func clear() throws {}
}

/// The fleet's store.
public let fleet = FleetStore()
