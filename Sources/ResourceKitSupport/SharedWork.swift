import Dispatch

/// Work that any number of callers await and any of them may abandon.
///
/// There is one run at a time for each key, started by the first caller and shared by every caller that asks for the
/// same key while it is in flight. A caller that is cancelled stops waiting at once, without stopping the run for the
/// others; when the last caller leaves, the run is cancelled and forgotten, so the next caller starts a new one. The
/// run's task is owned: it ends with its work, which is cancelled when nobody waits for it any more, and it is never
/// awaited by a caller that left, so a caller's cancellation holds even for work that ignores cancellation.
///
/// The credential store's fetch and ``Deduplication``'s flights share runs; the timeout, and the cache's fallback at
/// the timeout, run work for one caller with a deadline (``value(before:of:)``).
public actor SharedWork<Key: Hashable & Sendable, Value: Sendable> {
    /// Work with no run yet.
    public init() {}

    /// What a caller that waited until its deadline throws.
    public struct DeadlinePassed: Error {}

    private typealias Outcome = Result<Value, any Error>

    /// A run in flight and the callers waiting for it, each by the continuation its outcome is yielded to.
    private struct Run {
        var id: Int
        var task: Task<Void, Never>?
        var waiters: [Int: AsyncStream<Outcome>.Continuation]
    }

    private var runs: [Key: Run] = [:]
    private var lastID = 0

    /// How many callers wait for the run in flight for `key`, `nil` when none is: for tests.
    public func waiters(for key: Key) -> Int? { runs[key]?.waiters.count }

    /// The value of the run in flight for `key`, or of `work`, started as a run of its own when none is.
    ///
    /// - Parameters:
    ///   - key: What callers share the run by.
    ///   - work: The work a new run does; not called when the caller joins one.
    /// - Returns: The run's value, and whether this caller started the run.
    /// - Throws: The run's error, or `CancellationError` as soon as the caller is cancelled.
    public nonisolated func value(
        for key: Key,
        otherwise work: @escaping @Sendable () async throws -> Value
    ) async throws -> (value: Value, started: Bool) {
        let (outcomes, outcome) = AsyncStream.makeStream(of: Outcome.self, bufferingPolicy: .bufferingOldest(1))
        // The stream's iterator ends at once when the caller is cancelled, with the outcome if it came first.
        var first = outcomes.makeAsyncIterator()
        let joined = await join(key, outcome, work)
        guard let arrived = await first.next() else {
            if let joined { await leave(key, run: joined.run, waiter: joined.waiter) }
            throw CancellationError()
        }
        return (try arrived.get(), joined?.started ?? false)
    }

    /// Adds `outcome` to the callers of the run for `key`, starting one that does `work` if none is in flight.
    ///
    /// - Returns: The run and the waiter, or `nil` for a caller already cancelled, which waits for nothing.
    private func join(
        _ key: Key,
        _ outcome: AsyncStream<Outcome>.Continuation,
        _ work: @escaping @Sendable () async throws -> Value
    ) -> (run: Int, waiter: Int, started: Bool)? {
        guard !Task.isCancelled else {
            outcome.finish()
            return nil
        }
        lastID += 1
        let waiter = lastID
        if let run = runs[key]?.id {
            runs[key]?.waiters[waiter] = outcome
            return (run, waiter, false)
        }
        lastID += 1
        let id = lastID
        runs[key] = Run(id: id, waiters: [waiter: outcome])
        // Not isolated to the table: the work starts at once, without waiting for it.
        runs[key]?.task = Task { [weak self] in
            let outcome: Outcome
            do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
            await self?.land(key, id, outcome)
        }
        return (id, waiter, true)
    }

    /// Ends the run in flight for `key`, if any, and cancels its work.
    ///
    /// Each of its callers throws `CancellationError` at once, and its outcome is handed to nobody. The next caller
    /// starts a new run.
    public func cancel(_ key: Key) {
        guard let run = runs.removeValue(forKey: key) else { return }
        run.task?.cancel()
        for waiter in run.waiters.values { waiter.finish() }
    }

    /// Takes `waiter` off the callers of the run `id`, if it still runs, cancelling the run when it was the last.
    private func leave(_ key: Key, run id: Int, waiter: Int) {
        guard runs[key]?.id == id, runs[key]?.waiters.removeValue(forKey: waiter) != nil,
            runs[key]?.waiters.isEmpty == true
        else { return }
        runs.removeValue(forKey: key)?.task?.cancel()
    }

    /// Hands `outcome` to every caller of the run `id`, which has ended.
    private func land(_ key: Key, _ id: Int, _ outcome: Outcome) {
        guard runs[key]?.id == id, let run = runs.removeValue(forKey: key) else { return }
        for waiter in run.waiters.values {
            waiter.yield(outcome)
            waiter.finish()
        }
    }
}

extension SharedWork where Key == Int {
    /// The value of `work`, run for this caller alone, until `deadline`.
    ///
    /// With one caller there is nothing to share: the work's task is the caller's to cancel when it leaves.
    ///
    /// - Parameters:
    ///   - deadline: When the caller stops waiting, a reading of `Uptime`.
    ///   - ending: Told, before the work is cancelled, why the caller stops waiting for it: `true` when the deadline
    ///     passed, `false` when the caller was cancelled.
    ///   - work: The work.
    /// - Returns: The work's value.
    /// - Throws: ``DeadlinePassed`` as soon as `deadline` passes; the work is then cancelled, and not waited for.
    public static func value(
        before deadline: UInt64,
        ending: @escaping @Sendable (_ deadlinePassed: Bool) -> Void = { _ in },
        of work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let (outcomes, outcome) = AsyncStream.makeStream(of: Outcome.self, bufferingPolicy: .bufferingOldest(1))
        let run = Task {
            do { outcome.yield(.success(try await work())) } catch { outcome.yield(.failure(error)) }
        }
        defer { run.cancel() }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let now = DispatchTime.now().uptimeNanoseconds
                if deadline > now { try await Task.sleep(nanoseconds: deadline - now) }
                ending(true)
                outcome.yield(.failure(DeadlinePassed()))
            }
            defer { group.cancelAll() }
            // The stream's iterator ends at once when the caller is cancelled, with the outcome if it came first.
            var first = outcomes.makeAsyncIterator()
            guard let arrived = await first.next() else {
                ending(false)
                throw CancellationError()
            }
            return try arrived.get()
        }
    }
}
