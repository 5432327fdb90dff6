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

// RetryingRequests.md:51, block 2
@MainActor private func retryingRequestsSnippet2() async throws {
    let webservice = Webservice(middleware: [RetryPolicy(networkWait: 30), authentication, Deduplication()])
    _ = (webservice)
}
