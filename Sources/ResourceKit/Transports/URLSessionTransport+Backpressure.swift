import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// The delegate queue of ``URLSessionTransport``'s own session on Linux: a serial queue that holds at most
    /// ``capacity`` undelivered delegate calls, so a body arrives no faster than the delegate takes it.
    ///
    /// FoundationNetworking hands each chunk curl reads to the delegate queue without waiting, and can't pause curl
    /// (its `_NativeProtocol` traps on "pausing receive"). When the delegate writes a download to disk more slowly than
    /// loopback or a fast network delivers it, the chunks pile up in memory: a 1 GiB download measured 130 to 370 MiB
    /// more peak memory. Here the thread that adds a call, curl's, waits for a free place instead; curl then stops
    /// reading the socket, and TCP slows the server down.
    ///
    /// It restates `OperationQueue`'s own `@unchecked Sendable`, as Swift requires of a subclass; what it adds, a
    /// semaphore and a time, is immutable and `Sendable`.
    final class BackpressureQueue: OperationQueue, @unchecked Sendable {
        /// The most delegate calls waiting at once: with curl's chunks of at most 512 KiB, a few MiB of body.
        static let capacity = 16

        /// The free places.
        private let places = DispatchSemaphore(value: 0)
        /// The longest a call waits for a place, in seconds.
        private let patience: TimeInterval

        /// A queue whose calls wait at most `patience` seconds for a place.
        init(patience: TimeInterval = 1) {
            self.patience = patience
            // Made empty and then given its places: libdispatch traps when a semaphore is freed with fewer than it
            // started with, as it would be if a queued call were dropped without running.
            for _ in 0..<Self.capacity { places.signal() }
            super.init()
            maxConcurrentOperationCount = 1
            name = "ResourceKit.URLSessionTransport.delegate"
        }

        /// Adds `block` once a place is free.
        ///
        /// A call made from this queue itself never waits (its own calls would have to end first), and no wait lasts
        /// more than `patience` seconds: a delegate that is stuck slows a load down but can't stop the session. The
        /// delegate never waits for the session's work queue, where curl's thread may be waiting here: it cancels
        /// tasks and answers challenges from another queue.
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            let took = OperationQueue.current !== self && places.wait(timeout: .now() + patience) == .success
            super.addOperation { [places] in
                block()
                if took { places.signal() }
            }
        }
    }
#endif
