// Generated from Sources/ResourceKit/ResourceKit.docc/DeduplicatingRequests.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// DeduplicatingRequests.md:10, block 1
@MainActor private func deduplicatingRequestsSnippet1() async throws {
    let webservice = Webservice(middleware: [RetryPolicy(), authentication, Deduplication()])
    _ = (webservice)
}
