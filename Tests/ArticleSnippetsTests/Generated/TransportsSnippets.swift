// Generated from Sources/ResourceKit/ResourceKit.docc/Transports.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Transports.md:27, block 1
@MainActor private func transportsSnippet1() async throws {
    let configuration = URLSessionConfiguration.default
    configuration.httpAdditionalHeaders = ["Authorization": "Bearer \(token)"]
    let webservice = Webservice(
        transport: URLSessionTransport(configuration: configuration, crossOriginSafeHeaders: ["X-Request-ID"]))
    _ = (configuration, webservice)
}

// Transports.md:76, block 2
// Not compiled: a Package.swift fragment.

// Transports.md:80, block 3
#if AsyncHTTPClient
@MainActor private func transportsSnippet3() async throws {
    let webservice = Webservice(transport: AsyncHTTPClientTransport())
    _ = (webservice)
}
#endif

// Transports.md:129, block 4
#if AsyncHTTPClient
@MainActor private func transportsSnippet4() async throws {
    let policy = TrustPolicy(
        additionalRoots: [privateCA],  // PEM or DER
        pinnedKeys: ["JmHaysgRe22ETZR55gQZgnYnYYQzFObshv16yqujzas=", "+hvZieUO3aw9kCGttz9Zz5pddbrETcOo0fS9y0dwl5U="],
        minimumTLSVersion: .v1_2,
        clientIdentity: p12, identityPassword: password)
    let webservice = Webservice(transport: try AsyncHTTPClientTransport(trust: policy))
    _ = (policy, webservice)
}
#endif

// Transports.md:226, block 5
#if AsyncHTTPClient
@MainActor private func transportsSnippet5() async throws {
    let transport = try AsyncHTTPClientTransport(
        trust: TrustPolicy(trustsSystemRoots: false),  // any other host: refused
        hosts: [
            "api.example.com": TrustPolicy(pinnedKeys: [current, backup]),
            "*.cdn.example.com": TrustPolicy(),
        ])
    _ = (transport)
}
#endif

// Transports.md:299, block 6
@MainActor private func transportsSnippet6() async throws {
    let episodes = try await Webservice(transport: FileTransport()).load(Resource<[Episode]>(get: bundledEpisodesURL))
    _ = (episodes)
}

// Transports.md:329, block 7
private struct StreamingClientTransport: Transport {
    let client: StreamingClient  // another HTTP client
    func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        let (head, chunks) = try await client.stream(request)  // chunks: `Data` as they arrive
        return (Response(statusCode: head.status, headers: head.fields, url: request.url), ResponseBody(chunks))
    }
}

// Transports.md:343, block 8
private struct SessionTransport: Transport {
    func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        let (data, response) = try await URLSession.shared.data(for: try URLRequest(request))
        return (try Response(response), ResponseBody(data))
    }
}

// Transports.md:380, block 9
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
