// Generated from Sources/ResourceKit/ResourceKit.docc/MiddlewareChain.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MiddlewareChain.md:11, block 1
@MainActor private func middlewareChainSnippet1() async throws {
    let webservice = Webservice(
        middleware: [RetryPolicy(), authentication, Deduplication()],
        observer: { event in logger.info("\(event)") }
    )
    _ = (webservice)
}

// MiddlewareChain.md:87, block 2
private struct APIKey: Middleware {
    var key: String
    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        var request = request
        request.setValue(key, forHTTPHeaderField: "X-API-Key")
        return try await next(request, context)
    }
}

// MiddlewareChain.md:126, block 3
@MainActor private func middlewareChainSnippet3() async throws {
    // What Webservice(cache: cache, middleware: [RetryPolicy()]) assembles, written out; the web service adds the
    // layer that tells the observer (step 8) innermost.
    let layers = Webservice(cache: cache, middleware: [RetryPolicy()]).layers
    let same = Webservice(transport: URLSessionTransport(), layers: layers, observer: nil)
    _ = (layers, same)
}
