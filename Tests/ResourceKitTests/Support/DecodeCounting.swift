import Foundation
import Synchronization

/// A thread-safe count, for observing how often decoding does something.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class Counter: Sendable {
    private let value = Mutex(0)

    var count: Int {
        value.withLock { $0 }
    }

    func increment() {
        value.withLock { $0 += 1 }
    }
}

extension CodingUserInfoKey {
    /// Where ``Episode`` finds the counter of its `init(from:)` calls.
    static let modelInits = CodingUserInfoKey(rawValue: "ResourceKitTests.modelInits")!
}

/// A `JSONDecoder` that counts its top-level `decode(_:from:)` calls, each of which parses the bytes, and, through
/// `userInfo`, the `init(from:)` calls of ``Episode``.
///
/// `JSONDecoder` is `@unchecked Sendable`, and Swift requires a subclass to restate that; this one adds only
/// `Sendable` counters.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class CountingJSONDecoder: JSONDecoder, @unchecked Sendable {
    let decodeCalls = Counter()
    let modelInits = Counter()

    override init() {
        super.init()
        userInfo[.modelInits] = modelInits
    }

    override func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        decodeCalls.increment()
        return try super.decode(type, from: data)
    }
}
