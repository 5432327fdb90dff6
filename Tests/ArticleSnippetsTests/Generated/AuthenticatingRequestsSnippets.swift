// Generated from Sources/ResourceKit/ResourceKit.docc/AuthenticatingRequests.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// AuthenticatingRequests.md:10, block 1
@MainActor private func authenticatingRequestsSnippet1() async throws {
    let authentication = Authentication(for: [URL(string: "https://api.example.com")!]) { rejected in
        "Bearer " + (try await tokens.accessToken(refreshing: rejected != nil))
    }
    let webservice = Webservice(middleware: [RetryPolicy(), authentication])
    _ = (authentication, webservice)
}

// AuthenticatingRequests.md:29, block 2
private func signIn(token: String) async throws {
    try await authentication.setCredential("Bearer \(token)")
}

private func signOut() async {
    await authentication.removeCredential()
}

// AuthenticatingRequests.md:87, block 3
@MainActor private func authenticatingRequestsSnippet3() async throws {
    let cookies = CookieJar()
    let webservice = Webservice(transport: URLSessionTransport(cookies: cookies))
    let episodes = try await webservice.load(Episode.all)
    print("\(episodes.count) episodes, cookies: \(cookies)")  // names, domains and paths: never a value
    cookies.removeAll()  // when the user signs out
    _ = (cookies, webservice, episodes)
}

// AuthenticatingRequests.md:95, block 4
#if AsyncHTTPClient
@MainActor private func authenticatingRequestsSnippet4() async throws {
    var transport = AsyncHTTPClientTransport()
    transport.cookies = CookieJar()
    let webservice = Webservice(transport: transport)
    _ = (transport, webservice)
}
#endif
