/// Values by key, in the order they were last used: finding, using, adding and removing one, and finding the least
/// recently used, all take constant time.
///
/// A doubly linked list over array slots: each value's slot holds the slots of its neighbours in the order of use,
/// and slots freed by removals are reused. ``ResponseCache`` evicts with it.
public struct RecencyList<Key: Hashable, Value> {
    /// An empty list.
    public init() {}

    /// The slot of each key's value.
    private var slots: [Key: Int] = [:]
    /// The key and value in each slot; slot 0, the anchor, and freed slots hold `nil`.
    private var items: [(key: Key, value: Value)?] = [nil]
    /// For each slot, the slot used just before it; the anchor's is the most recently used.
    private var older = [0]
    /// For each slot, the slot used just after it; the anchor's is the least recently used.
    private var newer = [0]
    /// Slots whose value was removed, to reuse.
    private var freed: [Int] = []

    /// The number of values.
    public var count: Int { slots.count }

    /// The keys, in no particular order.
    public var keys: Dictionary<Key, Int>.Keys { slots.keys }

    /// The least recently used key, or `nil` when there are no values.
    public var leastRecentlyUsedKey: Key? { items[newer[0]]?.key }

    /// The value for `key`, without counting it as a use.
    public subscript(key: Key) -> Value? {
        slots[key].flatMap { items[$0]?.value }
    }

    /// Makes `key`'s value, if there is one, the most recently used.
    public mutating func use(_ key: Key) {
        guard let slot = slots[key] else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    /// Adds `value` for `key` as the most recently used, replacing the value `key` had.
    public mutating func insert(_ value: Value, for key: Key) {
        removeValue(forKey: key)
        let slot: Int
        if let reused = freed.popLast() {
            slot = reused
            items[slot] = (key, value)
        } else {
            slot = items.count
            items.append((key, value))
            older.append(0)
            newer.append(0)
        }
        slots[key] = slot
        linkAsNewest(slot)
    }

    /// Removes and returns the value for `key`, or returns `nil` when there is none.
    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = slots.removeValue(forKey: key) else { return nil }
        unlink(slot)
        let value = items[slot]?.value
        items[slot] = nil
        freed.append(slot)
        return value
    }

    /// Removes every value.
    public mutating func removeAll() {
        self = RecencyList()
    }

    private mutating func unlink(_ slot: Int) {
        newer[older[slot]] = newer[slot]
        older[newer[slot]] = older[slot]
    }

    private mutating func linkAsNewest(_ slot: Int) {
        let newest = older[0]
        older[slot] = newest
        newer[slot] = 0
        newer[newest] = slot
        older[0] = slot
    }
}

extension RecencyList: Sendable where Key: Sendable, Value: Sendable {}
