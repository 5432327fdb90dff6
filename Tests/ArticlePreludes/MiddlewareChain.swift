import ResourceKit

/// A cache in memory.
public let cache = ResponseCache(byteLimit: 10_000_000)
