import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

/// Work that callers share and may abandon: a cancelled caller leaves at once, the others keep the work, and the last
/// one out cancels it.
@Suite struct SharedWorkTests {
    /// Work that runs until the test finishes it or its task is cancelled, counting both.
    private actor Probe {
        private(set) var started = 0
        private(set) var cancelled = 0
        private(set) var finished = false

        /// Runs the work: `started`'s count, once finished.
        func work() async throws -> Int {
            started += 1
            let number = started
            do {
                while !finished { try await Task.sleep(for: .milliseconds(5)) }
            } catch {
                cancelled += 1
                throw error
            }
            return number
        }

        func finish() { finished = true }
    }

    private let probe = Probe()
    private let shared = SharedWork<String, Int>()

    /// Finishes the work after 10 s, should a regression keep a caller waiting for it, so the test fails instead of
    /// hanging; cancel it when the test ends.
    private func safetyNet() -> Task<Void, Never> {
        Task { [probe] in
            guard (try? await Task.sleep(for: .seconds(10))) != nil else { return }
            await probe.finish()
        }
    }

    /// A caller of the work for `key`, in a task of its own.
    private func caller(_ key: String = "a") -> Task<Int, any Error> {
        Task { [probe, shared] in try await shared.value(for: key) { try await probe.work() }.value }
    }

    @Test func aCancelledCallerStopsWaitingAtOnceAndTheOthersStillGetTheValue() async throws {
        let net = safetyNet()
        defer { net.cancel() }
        let (leaving, staying) = (caller(), caller())
        try await eventually("both callers wait for one run") { await shared.waiters(for: "a") == 2 }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(await !probe.finished, "the cancelled caller waited for the work")
        #expect(await shared.waiters(for: "a") == 1)
        await probe.finish()
        #expect(try await staying.value == 1)
        #expect(await probe.started == 1)
        #expect(await probe.cancelled == 0)
    }

    @Test func theLastCallerToLeaveCancelsTheWorkAndTheNextStartsAnew() async throws {
        let net = safetyNet()
        defer { net.cancel() }
        let callers = [caller(), caller()]
        try await eventually("both callers wait for one run") { await shared.waiters(for: "a") == 2 }
        for caller in callers { caller.cancel() }
        for caller in callers { await #expect(throws: CancellationError.self) { try await caller.value } }
        try await eventually("the work's task was cancelled and ended") { await probe.cancelled == 1 }
        #expect(await shared.waiters(for: "a") == nil)
        await probe.finish()
        #expect(try await caller().value == 2)
    }

    @Test func cancellingARunEndsEveryCallersWaitAtOnceAndItsWork() async throws {
        let net = safetyNet()
        defer { net.cancel() }
        let callers = [caller(), caller()]
        try await eventually("both callers wait for one run") { await shared.waiters(for: "a") == 2 }
        await shared.cancel("a")
        for caller in callers { await #expect(throws: CancellationError.self) { try await caller.value } }
        #expect(await !probe.finished, "a caller waited for the work")
        try await eventually("the work's task was cancelled and ended") { await probe.cancelled == 1 }
        #expect(await shared.waiters(for: "a") == nil)
        await probe.finish()
        #expect(try await caller().value == 2)
    }

    @Test func callersOfOtherKeysDontShareTheWork() async throws {
        let (a, b) = (caller("a"), caller("b"))
        try await eventually("two runs") {
            let (a, b) = (await shared.waiters(for: "a"), await shared.waiters(for: "b"))
            return a == 1 && b == 1
        }
        await probe.finish()
        #expect(try await Set([a.value, b.value]) == [1, 2])
    }

    @Test func aCallerWhoseDeadlinePassesStopsWaitingAndTheWorkIsCancelled() async throws {
        let start = Uptime.now()
        let probe = probe
        await #expect(throws: SharedWork<Int, Int>.DeadlinePassed.self) {
            try await SharedWork<Int, Int>.value(before: start + 50_000_000) { try await probe.work() }
        }
        try await eventually("the work's task was cancelled and ended") { await probe.cancelled == 1 }
    }

    @Test func aCallerStopsWaitingForWorkThatIgnoresCancellation() async throws {
        let latch = Latch()
        let net = Task {
            guard (try? await Task.sleep(for: .seconds(10))) != nil else { return }
            await latch.open()
        }
        defer { net.cancel() }
        let caller = Task {
            try await SharedWork<Int, Int>.value(before: Uptime.now() + 3_600_000_000_000) {
                await latch.wait()
                return 1
            }
        }
        try await eventually("the work waits") { await latch.isWaiting }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(await latch.isWaiting, "the caller waited for the work")
        await latch.open()
    }

    /// Holds its callers, whatever their tasks' cancellation, until opened.
    private actor Latch {
        private var waiting: CheckedContinuation<Void, Never>?
        var isWaiting: Bool { waiting != nil }

        func wait() async { await withCheckedContinuation { waiting = $0 } }

        func open() {
            waiting?.resume()
            waiting = nil
        }
    }
}
