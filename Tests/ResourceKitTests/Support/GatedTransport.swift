import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that holds every request until the test opens it, and counts what it sees.
///
/// Requests are named by their URL's last path component, so `Gate.resource("a")` loads `…/a`.
struct GatedTransport: Transport {
    let gate: Gate

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        let name = request.url?.lastPathComponent ?? ""
        try await gate.pass(name)
        let response = HTTPURLResponse(
            url: request.url ?? baseURL, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)
        guard let response else { throw URLError(.badServerResponse) }
        return (Data(name.utf8), response)
    }
}

/// Where a ``GatedTransport`` holds requests: records the order they arrive in and how many are inside at once.
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
