import EpisodesService
import Foundation
import ResourceKit
import Testing

/// A request redirected with its method kept (307, 308) reaches the target with its body, with each transport.
/// (Linux's `URLSession` sends the method with an empty body.)
@Suite(.timeLimit(.minutes(1))) struct RedirectedBodyTests {
    /// What `/faults/body` saw.
    private struct Echo: Decodable {
        var method: String
        var contentLength: String
        var body: String
    }

    @Test(arguments: TransportKind.allCases, [307, 308])
    func postRedirectedWithItsMethodKeepsItsBody(kind: TransportKind, status: Int) async throws {
        try await withServer { base in
            let draft = #"{"title": "Draft"}"#
            var post = try Resource<Echo>(url: base / "faults/redirect", method: .post(Data(draft.utf8)))
            post.queryItems = [
                URLQueryItem(name: "to", value: "/faults/body"), .init(name: "status", value: "\(status)"),
            ]
            let echo = try await kind.webservice().load(post)
            #expect(echo.method == "POST")
            #expect(echo.body == draft)
            #expect(echo.contentLength == "\(draft.utf8.count)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func bodyFollowsAChainOfRedirects(kind: TransportKind) async throws {
        try await withServer { base in
            let draft = #"{"title": "Draft"}"#
            let last = "/faults/redirect?status=308&to=/faults/body"
            var post = try Resource<Echo>(url: base / "faults/redirect", method: .post(Data(draft.utf8)))
            post.queryItems = [URLQueryItem(name: "to", value: last), .init(name: "status", value: "307")]
            let echo = try await kind.webservice().load(post)
            #expect(echo.body == draft)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func endlessRedirectOfAPostIsTooManyRedirects(kind: TransportKind) async throws {
        try await withServer { base in
            let post = Resource<Data>(url: base / "faults/redirect-loop", method: .post(Data("draft".utf8)))
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(post)
            }
            #expect(error.urlError?.code == .httpTooManyRedirects, "\(error)")
        }
    }
}
