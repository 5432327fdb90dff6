import Foundation
import Testing

@testable import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
    import Synchronization
#endif

/// The settings of the `URLSession` behind `Webservice()`.
@Suite struct URLSessionTransportTests {
    @Test func defaultConfigurationKeepsNoURLCacheAndNoCookies() {
        let configuration = URLSessionConfiguration.resourceKitDefault
        #expect(configuration.urlCache == nil)
        #expect(configuration.httpCookieStorage == nil)
        #expect(configuration.httpCookieAcceptPolicy == .never)
        #expect(configuration.httpShouldSetCookies == false)
        let connections = URLSessionConfiguration.default.httpMaximumConnectionsPerHost
        #expect(configuration.httpMaximumConnectionsPerHost == connections)
    }

    #if canImport(FoundationNetworking)
        /// FoundationNetworking hands curl's chunks to the delegate queue without waiting; a full queue must make the
        /// thread that adds one (curl's) wait, or a download that arrives faster than it is written piles up in memory.
        @Test func aFullDelegateQueueMakesTheThreadThatAddsACallWait() async throws {
            let queue = BackpressureQueue(patience: 60)
            let capacity = BackpressureQueue.capacity
            let gate = DispatchSemaphore(value: 0)
            let added = Mutex(0)
            DispatchQueue.global().async {
                for _ in 0...capacity {
                    queue.addOperation { gate.wait() }
                    added.withLock { $0 += 1 }
                }
            }
            try await waitFor { added.withLock { $0 } == capacity }
            try await Task.sleep(nanoseconds: 200_000_000)
            #expect(added.withLock { $0 } == capacity, "the call after the queue filled up did not wait")

            gate.signal()
            try await waitFor { added.withLock { $0 } == capacity + 1 }
            for _ in 0..<capacity { gate.signal() }
            try await waitFor { queue.operationCount == 0 }
        }

        /// Polls `condition` every 10 ms for up to 5 s.
        private func waitFor(_ condition: () -> Bool) async throws {
            for _ in 0..<500 where !condition() {
                try await Task.sleep(nanoseconds: 10_000_000)
            }
            #expect(condition())
        }
    #endif
}
