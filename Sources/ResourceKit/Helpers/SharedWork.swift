/// Work that any number of callers await and any of them may abandon.
///
/// There is one run at a time for each key, started by the first caller and shared by every caller that asks for the
/// same key while it is in flight. A caller that is cancelled, or whose deadline passes, stops waiting at once, without stopping the run for the
/// others; when the last caller leaves, the run is cancelled and forgotten, so the next caller starts a new one. The
/// run's task is owned: it ends with its work, which is cancelled when nobody waits for it any more, and it is never
/// awaited by a caller that left, so a caller's cancellation or deadline holds even for work that ignores
/// cancellation.
///
/// The timeout (one caller, with a deadline), the credential store's fetch and ``Deduplication``'s flights use it.
actor SharedWork<Key: Hashable & Sendable, Value: Sendable> {
    /// What a caller that waited until its deadline throws.
    struct DeadlinePassed: Error {}

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
    func waiters(for key: Key) -> Int? { runs[key]?.waiters.count }

    /// The value of the run in flight for `key`, or of `work`, started as a run of its own when none is.
    ///
    /// - Parameters:
    ///   - key: What callers share the run by.
    ///   - deadline: When, a reading of `Uptime`, the caller stops waiting; `nil` for no deadline.
    ///   - work: The work a new run does; not called when the caller joins one.
    /// - Returns: The run's value, and whether this caller started the run.
    /// - Throws: The run's error; `CancellationError` as soon as the caller is cancelled; ``DeadlinePassed`` as soon as
    ///   `deadline` passes.
    nonisolated func value(
        for key: Key,
        before deadline: UInt64? = nil,
        otherwise work: @escaping @Sendable () async throws -> Value
    ) async throws -> (value: Value, started: Bool) {
        let (outcomes, outcome) = AsyncStream.makeStream(of: Outcome.self, bufferingPolicy: .bufferingOldest(1))
        guard let deadline else { return try await value(for: key, outcomes, outcome, work) }
        // A child task that the group cancels once the caller has an outcome yields the deadline's into the stream.
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let now = Uptime.now()
                if deadline > now { try await Task.sleep(nanoseconds: deadline - now) }
                outcome.yield(.failure(DeadlinePassed()))
            }
            defer { group.cancelAll() }
            return try await value(for: key, outcomes, outcome, work)
        }
    }

    /// The first of `outcomes`, whose continuation is `outcome`, once the caller joined the run for `key`.
    private nonisolated func value(
        for key: Key,
        _ outcomes: AsyncStream<Outcome>,
        _ outcome: AsyncStream<Outcome>.Continuation,
        _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> (value: Value, started: Bool) {
        // The stream's iterator ends at once when the caller is cancelled, with the outcome if it came first.
        var first = outcomes.makeAsyncIterator()
        let joined = await join(key, outcome, work)
        let arrived = await first.next()
        guard case .success(let value)? = arrived else {
            if let joined { await leave(key, run: joined.run, waiter: joined.waiter) }
            if case .failure(let error)? = arrived { throw error }
            throw CancellationError()
        }
        return (value, joined?.started ?? false)
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
        runs[key]?.task = Task {
            let outcome: Outcome
            do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
            self.land(key, id, outcome)
        }
        return (id, waiter, true)
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
    /// - Throws: ``DeadlinePassed`` as soon as `deadline` passes; the work is then cancelled, and not waited for.
    static func value(before deadline: UInt64, of work: @escaping @Sendable () async throws -> Value) async throws
        -> Value
    {
        try await SharedWork().value(for: 0, before: deadline, otherwise: work).value
    }
}
