/// A cap on how many loads send requests at once, with a first-come, first-served queue for the rest.
///
/// A ``Webservice`` with a limiter sends at most ``maxConcurrentLoads`` requests through its transport at a time.
/// Further loads wait in the order they were called and start as earlier ones finish. The limiter is a reference
/// type: copies of a web service share it, and so can web services with different transports, by assigning the
/// same limiter to ``Webservice/limiter``.
///
/// Only the transport phase counts: a load takes its place when it is about to send its request and gives it back
/// as soon as the response has arrived or the transport has failed, before the response is validated and parsed.
/// A load that ends early, on its ``Resource/timeout`` or when cancelled, leaves its place taken until its transport
/// has really returned, so a transport that ignores cancellation can't push the requests in flight over the cap.
/// Responses served from a ``ResponseCache`` don't take a place at all, and a resource's ``Resource/timeout`` starts
/// only once the load has its place.
///
/// Cancelling a waiting load ends its wait at once: `load` throws `CancellationError`, its request is never sent,
/// and it leaves the queue without holding up the loads behind it.
///
/// ```swift
/// let limiter = LoadLimiter(maxConcurrentLoads: 4)
/// var thumbnails = Webservice()
/// thumbnails.limiter = limiter
/// ```
public actor LoadLimiter {
    /// A load waiting for a place, and how to wake it.
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// The most loads that send requests at once; at least 1.
    public nonisolated let maxConcurrentLoads: Int

    /// How many loads are sending requests right now.
    ///
    /// It is a snapshot for diagnostics and tests; by the time you read it, loads may have started or finished.
    public private(set) var loadsInFlight = 0

    /// The loads waiting for a place, first in line first.
    private var waiters: [Waiter] = []
    private var nextWaiterID: UInt64 = 0

    /// How many loads are waiting for a place right now.
    ///
    /// It is a snapshot for diagnostics and tests; by the time you read it, loads may have started or been
    /// cancelled.
    public var loadsWaiting: Int { waiters.count }

    /// Creates a limiter that lets `maxConcurrentLoads` loads send requests at once.
    ///
    /// A limit below 1 would let no load ever start, so it is raised to 1: loads then run one at a time.
    ///
    /// ```swift
    /// let oneAtATime = LoadLimiter(maxConcurrentLoads: 1)
    /// ```
    ///
    /// - Parameter maxConcurrentLoads: The most loads in flight at once. Values below 1 mean 1.
    public init(maxConcurrentLoads: Int) {
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
            let id = nextWaiterID
            nextWaiterID += 1
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        waiters.append(Waiter(id: id, continuation: continuation))
                    }
                }
            } onCancel: {
                Task { await self.cancelWaiter(id) }
            }
        }
        // A task cancelled just as it was handed a place gives the place on instead of sending its request.
        if Task.isCancelled {
            leave()
            throw CancellationError()
        }
    }

    /// Gives a place back: straight to the first waiting load, or back to the pool when none waits.
    func leave() {
        if waiters.isEmpty {
            loadsInFlight -= 1
        } else {
            waiters.removeFirst().continuation.resume()
        }
    }

    /// Ends the wait of a cancelled load, if it is still waiting.
    private func cancelWaiter(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
