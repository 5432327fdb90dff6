import Foundation

/// Checks `condition` every 10 ms until it holds; throws if it doesn't within 5 s.
func waitUntil(_ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(5)
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw ConditionNeverHeld() }
        try await Task.sleep(for: .milliseconds(10))
    }
}

struct ConditionNeverHeld: Error {}

/// A value that tasks share, behind a lock. (`Mutex` needs macOS 15; the package supports macOS 14.)
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
