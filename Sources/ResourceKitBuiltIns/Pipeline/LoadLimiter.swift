import ResourceKitCore
internal import ResourceKitSupport
import Synchronization

/// A cap on how many loads send requests at once, with a first-come, first-served queue for the rest.
///
/// ``Webservice/init(baseURL:transport:maxConcurrentLoads:cache:middleware:observer:)`` makes one; copies of that web service share it. The rules
/// are in <doc:LoadingResources>.
///
/// Its state is behind a `Mutex` whose critical sections never wait: ``leave()`` is synchronous and non-blocking, so
/// a stream's body can give its place back from its `deinit`, on whichever thread drops it (one of curl's, or of the
/// cooperative pool), without waiting for a queue or a task.
final class LoadLimiter: Sendable {
    /// A load waiting for a place, and how to hand it one.
    ///
    /// The place comes through a stream that ends at once when the load's task is cancelled, so no other task needs
    /// to end its wait.
    private struct Waiter {
        var id: UInt64
        var place: AsyncStream<Void>.Continuation
    }

    private struct State {
        var loadsInFlight = 0
        /// The loads waiting for a place, first in line first.
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The most loads that send requests at once; at least 1.
    let maxConcurrentLoads: Int

    /// How many loads are sending requests right now.
    ///
    /// It is a snapshot for diagnostics and tests; by the time you read it, loads may have started or finished.
    var loadsInFlight: Int { state.withLock { $0.loadsInFlight } }

    /// How many loads are waiting for a place right now.
    ///
    /// It is a snapshot for diagnostics and tests; by the time you read it, loads may have started or been
    /// cancelled.
    var loadsWaiting: Int { state.withLock { $0.waiters.count } }

    /// Creates a limiter that lets `maxConcurrentLoads` loads send requests at once.
    ///
    /// A limit below 1 would let no load ever start, so it is raised to 1: loads then run one at a time.
    ///
    /// ```swift
    /// let oneAtATime = LoadLimiter(maxConcurrentLoads: 1)
    /// ```
    ///
    /// - Parameter maxConcurrentLoads: The most loads in flight at once. Values below 1 mean 1.
    init(maxConcurrentLoads: Int) {
        self.maxConcurrentLoads = max(maxConcurrentLoads, 1)
    }

    /// Takes a place, waiting in line for one if all are taken.
    ///
    /// Every `enter` that returns needs one ``leave()``.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before it gets a place; then it holds none.
    func enter() async throws {
        let queued: (id: UInt64, places: AsyncStream<Void>)? = try state.withLock { state in
            if state.loadsInFlight < maxConcurrentLoads {
                state.loadsInFlight += 1
                return nil
            }
            try Task.checkCancellation()
            let id = state.nextWaiterID
            state.nextWaiterID += 1
            let (places, place) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingOldest(1))
            state.waiters.append(Waiter(id: id, place: place))
            return (id, places)
        }
        if let queued {
            // A place handed before this task iterates is buffered in the stream, so none is lost.
            var handed = queued.places.makeAsyncIterator()
            guard await handed.next() != nil else {
                // Cancelled before a place came: no place can come any more (``leave()`` skips this waiter).
                state.withLock { $0.waiters.removeAll { $0.id == queued.id } }
                throw CancellationError()
            }
        }
        // A task cancelled just as it was handed a place gives the place on instead of sending its request.
        if Task.isCancelled {
            leave()
            throw CancellationError()
        }
    }

    /// Gives a place back: straight to the first waiting load, or back to the pool when none waits.
    ///
    /// It returns when the place is given: handing it only resumes the waiting task, which never waits here.
    func leave() {
        state.withLock { state in
            while !state.waiters.isEmpty {
                let waiter = state.waiters.removeFirst()
                // A waiter whose task was cancelled has stopped waiting: the place goes to the next.
                if case .enqueued = waiter.place.yield() { return }
            }
            state.loadsInFlight -= 1
        }
    }
}
