// Generated from Sources/ResourceKit/ResourceKit.docc/RetryingRequests.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// RetryingRequests.md:9, block 1
@MainActor private func retryingRequestsSnippet1() async throws {
    let webservice = Webservice(middleware: [RetryPolicy(maxAttempts: 4)])
    _ = (webservice)
}

// RetryingRequests.md:33, block 2
@MainActor private func retryingRequestsSnippet2() async throws {
    let retryingConflicts = RetryPolicy(maxAttempts: 4) { failed in
        // Never the checkout; a 409 too, which this API clears in a moment.
        failed.context.name != "checkout" && (failed.isTransient || failed.response?.statusCode == 409)
    }
    _ = (retryingConflicts)
}

// RetryingRequests.md:61, block 3
import Synchronization

/// A clock whose sleeps end at once, each moving its time on: the policy's waits take no time.
private final class SkippingClock: Clock {
    private let start = ContinuousClock.now
    private let skipped = Mutex(Duration.zero)

    var now: ContinuousClock.Instant { start + skipped.withLock { $0 } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        skipped.withLock { $0 = max($0, deadline - start) }
    }
}

private let retryingAtOnce = RetryPolicy(maxAttempts: 4, baseDelay: 60, clock: SkippingClock())

// RetryingRequests.md:104, block 4
@MainActor private func retryingRequestsSnippet4() async throws {
    let webservice = Webservice(middleware: [RetryPolicy(networkWait: 30), authentication, Deduplication()])
    _ = (webservice)
}
