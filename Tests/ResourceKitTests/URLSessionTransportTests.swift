import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

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
        /// FoundationNetworking hands each chunk curl reads to the delegate queue without waiting: the queue must run
        /// the call before curl's thread reads on, or chunks pile up in memory, and must never make that thread wait.
        @Test func theDelegateQueueRunsEachCallOnTheThreadThatAddsItBeforeReturning() async {
            let queue = InlineQueue()
            let ran = await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    let caller = pthread_self()
                    let ranHere = Mutex(false)
                    queue.addOperation { ranHere.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 } }
                    continuation.resume(returning: ranHere.withLock { $0 })
                }
            }
            #expect(ran, "the call ran later, or on another thread")
        }
    #endif
}
