import Dispatch

/// Runs an actor's jobs, one at a time, on a serial Dispatch queue of its own, off Swift's cooperative pool.
///
/// It is for an actor whose work waits on files, such as a persistent ``ResponseCache``, as the pool's few threads
/// serve every task of the process (see also `offCooperativePool`), and for one whose state synchronous code must
/// change (`LoadLimiter`).
final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue
    private let marker = DispatchSpecificKey<Bool>()

    /// Creates an executor on a new serial queue named `label`.
    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: marker, value: true)
    }

    /// Whether the caller runs on this executor's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    /// Runs `body` on the queue, or at once when the caller already runs there, and returns when it has.
    ///
    /// It is for synchronous code, such as a `deinit`, that must act as the actor (with `assumeIsolated`).
    func sync<Result>(_ body: () -> Result) -> Result {
        isCurrent ? body() : queue.sync(execute: body)
    }

    func checkIsolated() {
        precondition(isCurrent, "not on the executor's queue")
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job))
    }

    func enqueue(_ job: UnownedJob) {
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
