// Generated from Sources/ResourceKit/ResourceKit.docc/UsingOpenAPI.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// UsingOpenAPI.md:19, block 1
// Not compiled: a Package.swift fragment.

// UsingOpenAPI.md:53, block 2
#if OpenAPI
import ResourceKit
import ResourceKitOpenAPI

@MainActor private func usingOpenAPISnippet2() async throws {
    let webservice = Webservice(
        maxConcurrentLoads: 8, cache: ResponseCache(byteLimit: 10_000_000),
        middleware: [RetryPolicy(), authentication], observer: { event in logger.info("\(event)") })
    let client = Client(serverURL: try Servers.Server1.url(), transport: webservice)
    let episodes = try await client.listEpisodes().ok.body.json
    _ = (webservice, client, episodes)
}
#endif

// UsingOpenAPI.md:89, block 3
private struct ExportLimit: Middleware {
    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        var context = context
        context.maxBodySize = context.name == "exportEpisodes" ? 50_000_000 : 1_000_000
        return try await next(request, context)
    }
}

// UsingOpenAPI.md:119, block 4
#if OpenAPI
@MainActor private func usingOpenAPISnippet4() async throws {
    do {
        _ = try await client.getEpisode(path: .init(id: "1"))
    } catch let error as ClientError {
        logger.error("\(error.underlyingError)")  // the WebserviceError, redacted
    }
}
#endif

// UsingOpenAPI.md:133, block 5
#if HTTPTypes
@MainActor private func usingOpenAPISnippet5() async throws {
    guard let head = HTTPResponse(response) else { return }        // status and header fields, in order
    let back = Response(head, body: bytes, url: request.url)       // and back
    _ = (back)
}
#endif
