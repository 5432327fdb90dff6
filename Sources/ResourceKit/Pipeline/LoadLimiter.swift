/// A cap on how many loads send requests at once, with a first-come, first-served queue for the rest.
///
/// ``Webservice/init(transport:maxConcurrentLoads:cache:middleware:observer:)`` makes one; copies of that web service share it. The rules
/// are in <doc:LoadingResources>.
actor LoadLimiter {
    /// A load waiting for a place, and how to hand it one.
    ///
    /// The place comes through a stream that ends at once when the load's task is cancelled, so no other task needs
    /// to end its wait.
    private struct Waiter {
        var id: UInt64
        var place: AsyncStream<Void>.Continuation
    }

    /// Where the limiter runs: a serial queue of its own, which ``leaveNow()`` can wait on from synchronous code.
    private let executor = QueueExecutor(label: "ResourceKit.LoadLimiter")

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The most loads that send requests at once; at least 1.
    nonisolated let maxConcurrentLoads: Int

    /// How many loads are sending requests right now.
    ///
    /// It is a snapshot for diagnostics and tests; by the time you read it, loads may have started or finished.
    private(set) var loadsInFlight = 0

    /// The loads waiting for a place, first in line first.
    private var waiters: [Waiter] = []
    private var nextWaiterID: UInt64 = 0

    /// How many loads are waiting for a place right now.
    ///
    /// It is a snapshot for diagnostics and tests; by the time you read it, loads may have started or been
    /// cancelled.
    var loadsWaiting: Int { waiters.count }

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
        if loadsInFlight < maxConcurrentLoads {
            loadsInFlight += 1
        } else {
            try Task.checkCancellation()
            let id = nextWaiterID
            nextWaiterID += 1
            let (places, place) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingOldest(1))
            waiters.append(Waiter(id: id, place: place))
            var handed = places.makeAsyncIterator()
            guard await handed.next() != nil else {
                // Cancelled before a place came: no place can come any more (``leave()`` skips this waiter).
                waiters.removeAll { $0.id == id }
                throw CancellationError()
            }
        }
        // A task cancelled just as it was handed a place gives the place on instead of sending its request.
        if Task.isCancelled {
            leave()
            throw CancellationError()
        }
    }

    /// ``leave()`` from synchronous code, done when it returns, without a task.
    ///
    /// A stream's body gives its place back this way in its `deinit`.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    nonisolated func leaveNow() {
        executor.sync { assumeIsolated { $0.leave() } }
    }

    /// Gives a place back: straight to the first waiting load, or back to the pool when none waits.
    func leave() {
        while !waiters.isEmpty {
            let waiter = waiters.removeFirst()
            // A waiter whose task was cancelled has stopped waiting: the place goes to the next.
            if case .enqueued = waiter.place.yield() { return }
        }
        loadsInFlight -= 1
    }
}
