import Foundation
import ResourceKit
import ResourceKitTesting
import Synchronization
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a load's timeout names, and what it leaves alone: another load's deadline, the caller's own cancellation, and
/// the attempts made.
@Suite(.timeLimit(.minutes(1))) struct TimeoutNamingTests {
    /// A transport that answers each request with `answers` in turn, the last for every later request; it counts them.
    ///
    /// A status other than `200` comes at once; a `200` or a failure after `delay` seconds, whether or not the request
    /// was cancelled meanwhile.
    final class Late: WholeTransport {
        let delay: TimeInterval
        let answers: [Result<Int, URLError>]
        let count = Mutex(0)

        init(after delay: TimeInterval, _ answers: [Result<Int, URLError>]) {
            self.delay = delay
            self.answers = answers
        }

        func answer(_ request: Request) async throws -> (Data, URLResponse) {
            let index = count.withLock {
                $0 += 1
                return $0 - 1
            }
            let answer = answers[min(index, answers.count - 1)]
            if (try? answer.get()) ?? 200 == 200 {
                // Not `Task.sleep`, which a cancellation ends: a transport slow to stop.
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().asyncAfter(deadline: .now() + delay) { done.resume() }
                }
            }
            let head = HTTPURLResponse(
                url: request.url, statusCode: try answer.get(), httpVersion: nil, headerFields: [:])
            return (Data(), head!)
        }
    }

    private static let url = URL(string: "https://api.example.com/shared")!

    /// Waits, sleeping, until `condition` holds: what a late transport does takes time, not turns.
    private static func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<1_000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        try #require(condition())
    }

    /// A load that shares another's request (``Deduplication``) gets the request's own failure, never the other
    /// load's timeout.
    ///
    /// Both have a timeout of 3 s; the second starts 1.5 s later, so the first's deadline passes while the request
    /// runs, and the request fails (at 3.5 s) a second before the second's. With or without an observer.
    @Test(arguments: [false, true])
    func aSharedRequestPastAnotherLoadsDeadlineIsNoTimeoutOfThisOne(observed: Bool) async throws {
        let transport = Late(after: 3.5, [.failure(URLError(.networkConnectionLost))])
        let events = EventLog()
        let arrived = Arrivals()
        let webservice = Webservice(
            transport: transport, middleware: [arrived, Deduplication()], observer: observed ? events.observer : nil)
        var resource = Resource<Data>(url: Self.url)
        resource.timeout = 3
        let first = Task { [resource] in try await webservice.load(resource) }
        try await eventually("the shared request was sent") { transport.count.withLock { $0 } == 1 }
        try await Task.sleep(for: .milliseconds(1_500))
        let second = Task { [resource] in try await webservice.load(resource) }
        // A load is at the flight's door once it passes `arrived`, long before the first load's deadline.
        try await Self.waitUntil { arrived.count.withLock { $0 } == 2 }

        let firstError = try await #require(throws: WebserviceError.self) { try await first.value }
        #expect(firstError.reason.isTimedOut)
        let secondError = try await #require(throws: WebserviceError.self) { try await second.value }
        #expect((try requireCase(\.transport, of: secondError) as? URLError)?.code == .networkConnectionLost)
        #expect(transport.count.withLock { $0 } == 1, "the second load joined the first's request")
    }

    /// Counts the requests that pass it.
    final class Arrivals: Middleware {
        let count = Mutex(0)
        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            count.withLock { $0 += 1 }
            return try await next(request, context)
        }
    }

    /// A load that times out on its third attempt says so, in its error and in its request's event.
    ///
    /// The timeout (5 s) leaves the two quick answers room on a machine busy starting every other test (a CI run
    /// saw 4 s pass before the first); the third answer comes 3 s after it.
    @Test func aTimedOutLoadCountsTheAttemptsItMade() async throws {
        let transport = Late(after: 8, [.success(503), .success(503), .success(200)])
        let events = EventLog()
        var policy = RetryPolicy(maxAttempts: 5, clock: VirtualClock())
        policy.random = { 0 }
        let webservice = Webservice(transport: transport, middleware: [policy], observer: events.observer)
        var resource = Resource<Data>(url: Self.url)
        resource.timeout = 5
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(resource) }
        #expect(error.reason.isTimedOut)
        #expect(error.attempts == 3)
        try await Self.waitUntil { events.events.contains { if case .failed = $0.kind { true } else { false } } }
        let failed = events.events.compactMap { event in
            if case .failed(let error, _) = event.kind { error as? WebserviceError } else { nil }
        }
        #expect(failed.map(\.reason.isTimedOut) == [true])
        #expect(failed.map(\.attempts) == [3])
    }

    /// A load its caller cancels throws `CancellationError`, and its request's event says so too, even when the
    /// transport is slow to stop and its request ends after the load's deadline.
    @Test func aCancelledLoadIsNoTimeoutWhenItsRequestEndsPastTheDeadline() async throws {
        // Cancelled at once, long before the deadline (2 s) even on a loaded machine; the request ends after it (3 s).
        let transport = Late(after: 3, [.failure(URLError(.cancelled))])
        let events = EventLog()
        let webservice = Webservice(transport: transport, observer: events.observer)
        var resource = Resource<Data>(url: Self.url)
        resource.timeout = 2
        let load = Task { try await webservice.load(resource) }
        try await eventually("the request was sent") { transport.count.withLock { $0 } == 1 }
        load.cancel()
        await #expect(throws: CancellationError.self) { try await load.value }
        try await Self.waitUntil { events.events.contains { if case .failed = $0.kind { true } else { false } } }
        let failure = events.events.compactMap { event in
            if case .failed(let error, _) = event.kind { error } else { nil }
        }.first
        #expect((failure as? WebserviceError)?.reason.isTimedOut != true, "\(String(describing: failure))")
    }
}
