import Foundation
import ResourceKit
import Testing

/// Where a ``StubTransport/gated(by:)`` transport holds requests until the test opens the gate for them; records the
/// order they arrive in and how many are inside at once.
///
/// Requests are named by their URL's last path component, so `Gate.resource("a")` loads `…/a`. A held request waits
/// even when its task is cancelled, as a transport that ignores cancellation does.
actor Gate {
    /// What an open gate lets a request do.
    enum Outcome {
        case answer
        case fail(any Error)
    }

    /// The requests that reached the transport, in order.
    private(set) var started: [String] = []
    /// The requests inside the transport now.
    private(set) var inFlight = 0
    /// The most requests that were inside the transport at once.
    private(set) var maxInFlight = 0

    private var held: [String: CheckedContinuation<Outcome, Never>] = [:]
    private var opened: [String: Outcome] = [:]

    /// Enters the gate and waits until the test opens it for `name`.
    func pass(_ name: String) async throws {
        started.append(name)
        inFlight += 1
        maxInFlight = max(maxInFlight, inFlight)
        let outcome: Outcome
        if let early = opened.removeValue(forKey: name) {
            outcome = early
        } else {
            outcome = await withCheckedContinuation { held[name] = $0 }
        }
        inFlight -= 1
        if case .fail(let error) = outcome { throw error }
    }

    /// Lets the request for `name` finish with `outcome`, now or when it arrives.
    func open(_ name: String, with outcome: Outcome = .answer) {
        if let continuation = held.removeValue(forKey: name) {
            continuation.resume(returning: outcome)
        } else {
            opened[name] = outcome
        }
    }

    /// The resource that loads `…/name` and returns the name the transport answered with.
    nonisolated static func resource(_ name: String) -> Resource<String> {
        Resource(url: baseURL.appendingPathComponent(name), parse: { String(decoding: $0, as: UTF8.self) })
    }
}

/// How a load ended, once it has: lets a test wait for a load without awaiting it, which would throw its error.
actor Finished {
    private(set) var result: Result<String, any Error>?

    /// Records how `load` ends, in a task of its own.
    static func watching(_ load: Task<String, any Error>) -> Finished {
        let finished = Finished()
        Task { await finished.record(await load.result) }
        return finished
    }

    private func record(_ result: Result<String, any Error>) {
        self.result = result
    }
}

/// Waits until every task of `tasks` has ended, without awaiting one, which a regression could keep waiting; records
/// an issue and throws if one never does.
func eventuallyEnded(
    _ tasks: [Task<String, any Error>],
    _ comment: Comment,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let ends = tasks.map(Finished.watching)
    for end in ends { try await eventually(comment, sourceLocation: sourceLocation) { await end.result != nil } }
}

/// Waits until `condition` holds, yielding to other tasks in between; records an issue and throws if it never does.
///
/// It counts yields, not time, so a slow machine only makes it take longer; it gives up after a million. Throwing
/// ends the test instead of letting it wait forever for something that will never happen.
func eventually(
    _ comment: Comment,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async -> Bool
) async throws {
    for _ in 0..<1_000_000 {
        if await condition() { return }
        await Task.yield()
    }
    Issue.record("Never happened: \(comment)", sourceLocation: sourceLocation)
    throw NeverHappened()
}

/// The error ``eventually(_:sourceLocation:_:)`` throws when its condition never held.
struct NeverHappened: Error {}
