import Dispatch

/// Runs an actor's jobs, one at a time, on a serial Dispatch queue of its own, off Swift's cooperative pool.
///
/// It is for an actor whose work waits on files, such as a persistent ``ResponseCache``, as the pool's few threads
/// serve every task of the process (see also `offCooperativePool`). It offers no blocking wait for its queue:
/// synchronous code that must change shared state (`LoadLimiter`) uses a `Mutex` that never waits instead.
public final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue
    private let marker = DispatchSpecificKey<Bool>()

    /// Creates an executor on a new serial queue named `label`.
    public init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: marker, value: true)
    }

    /// Whether the caller runs on this executor's queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    /// Stops the process unless the caller runs on this executor's queue.
    public func checkIsolated() {
        precondition(isCurrent, "not on the executor's queue")
    }

    /// Runs `job` on the queue.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    public func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job))
    }

    /// Runs `job` on the queue.
    public func enqueue(_ job: UnownedJob) {
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// This executor, unowned.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
