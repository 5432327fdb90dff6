import Foundation

/// Checks that a page's claim holds: prints it with a check mark, or prints what failed and where, then exits
/// with status 1 so `Scripts/playgrounds.sh` fails.
///
/// ```swift
/// check(episodes.count == 2, "the fixture holds two episodes")
/// ```
///
/// - Parameters:
///   - condition: The claim, evaluated.
///   - claim: What the page claims, phrased so it reads as true.
///   - file: The file of the call; the default is right.
///   - line: The line of the call; the default is right.
public func check(_ condition: Bool, _ claim: String, file: StaticString = #filePath, line: UInt = #line) {
    guard condition else {
        fail("check failed: \(claim)", file: file, line: line)
    }
    CheckCounter.shared.increment()
    print("  ✓ \(claim)")
}

/// Reports a failure and exits with status 1: for code paths a page must never reach.
///
/// - Parameters:
///   - message: What went wrong.
///   - file: The file of the call; the default is right.
///   - line: The line of the call; the default is right.
public func fail(_ message: String, file: StaticString = #filePath, line: UInt = #line) -> Never {
    print("  ✗ \(message)\n    at \(file):\(line)")
    exit(1)
}

/// Prints the page's closing line, `<page>: all checks passed (<n> checks)`, which `Scripts/playgrounds.sh` looks for.
///
/// A page that ran no ``check(_:_:file:line:)`` fails instead: it would prove nothing.
///
/// - Parameter page: The page's name, as in `contents.xcplayground`.
public func allChecksPassed(_ page: String) {
    let count = CheckCounter.shared.value
    guard count > 0 else {
        fail("\(page) ran no checks")
    }
    print("\(page): all checks passed (\(count) checks)")
}

/// How many checks have passed in this run.
private final class CheckCounter: @unchecked Sendable {
    static let shared = CheckCounter()
    private let lock = NSLock()
    private var count = 0

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func increment() {
        lock.lock()
        defer { lock.unlock() }
        count += 1
    }
}
