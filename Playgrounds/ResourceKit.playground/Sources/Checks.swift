import Foundation
import ResourceKit
import Synchronization

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
@MainActor
public func check(_ condition: Bool, _ claim: String, file: StaticString = #filePath, line: UInt = #line) {
    guard condition else {
        fail("check failed: \(claim)", file: file, line: line)
    }
    checksPassed += 1
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

/// Runs `operation`, which must fail with a `WebserviceError`, prints that error and returns it; any other outcome
/// fails the page.
///
/// ```swift
/// let error = await webserviceError { try await webservice.load(missing) }
/// check(error.statusCode == 404, "a 404 is an error")
/// ```
///
/// - Parameters:
///   - file: The file of the call; the default is right.
///   - line: The line of the call; the default is right.
///   - operation: The load or parse that must fail.
/// - Returns: The error it threw.
public func webserviceError<A>(
    file: StaticString = #filePath,
    line: UInt = #line,
    _ operation: () async throws -> A
) async -> WebserviceError {
    do {
        let value = try await operation()
        fail("expected a WebserviceError, got \(value)", file: file, line: line)
    } catch let error as WebserviceError {
        print("error:", error)
        return error
    } catch {
        fail("expected a WebserviceError, got \(error)", file: file, line: line)
    }
}

/// Prints the page's closing line, `<page>: all checks passed (<n> checks)`, which `Scripts/playgrounds.sh` looks for.
///
/// A page that ran no ``check(_:_:file:line:)`` fails instead: it would prove nothing.
///
/// - Parameter page: The page's name, as in `contents.xcplayground`.
@MainActor
public func allChecksPassed(_ page: String) {
    guard checksPassed > 0 else {
        fail("\(page) ran no checks")
    }
    print("\(page): all checks passed (\(checksPassed) checks)")
}

/// How many checks have passed in this run; a page's top-level code runs on the main actor.
@MainActor private var checksPassed = 0

/// An on/off switch that a stub transport reads and the page flips.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public final class Switch: Sendable {
    private let state: Mutex<Bool>

    /// Creates a switch that is `on`.
    public init(_ on: Bool) { state = Mutex(on) }

    /// Whether the switch is on.
    public var isOn: Bool {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}

/// A clock the page moves by hand, for a cache's `now`.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public final class PageClock: Sendable {
    private let date = Mutex(Date(timeIntervalSinceReferenceDate: 800_000_000))

    /// Creates a clock at a fixed date.
    public init() {}

    /// The clock's current date.
    public var now: Date { date.withLock { $0 } }

    /// Moves the clock `seconds` forward.
    public func advance(_ seconds: TimeInterval) { date.withLock { $0 += seconds } }
}

/// Keeps a web service's events, for the page to print and check.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public final class EventLog: Sendable {
    private let events = Mutex<[String]>([])

    /// Creates an empty log.
    public init() {}

    /// Adds `event`'s one-line description.
    public func add(_ event: WebserviceEvent) { events.withLock { $0.append(event.description) } }

    /// The descriptions so far, in order.
    public var descriptions: [String] { events.withLock { $0 } }
}
