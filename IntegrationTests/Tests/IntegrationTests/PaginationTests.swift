import EpisodesService
import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Pages followed by the server's `Link: <…>; rel="next"` header fields, or by a cursor in its bodies, one load each.
@Suite(.timeLimit(.minutes(1))) struct PaginationTests {
    /// A page as the server's `/feed` route answers it.
    struct FeedPage: Decodable, Sendable {
        var numbers: [Int]
        var next: String?
    }

    @Test(arguments: TransportKind.allCases)
    func everyPageIsLoadedByItsNextLinkUntilTheLast(kind: TransportKind) async throws {
        try await using(EpisodesServer.start(configure: { $0.addTransferRoutes() })) { base in
            var pages: [[Int]] = []
            for try await page in kind.webservice().pages(of: Resource<[Int]>(get: base / "pages?count=7")) {
                pages.append(page)
            }
            #expect(pages == [[1, 2], [3, 4], [5, 6], [7]])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func everyPageIsLoadedByTheCursorInThePageBeforeUntilOneHasNone(kind: TransportKind) async throws {
        try await using(EpisodesServer.start(configure: { $0.addTransferRoutes() })) { base in
            let first = Resource<FeedPage>(get: base / "feed?count=5")
            let feed = kind.webservice().pages(of: first) { page in
                page.next.map { cursor in
                    var next = first
                    next.queryItems = [URLQueryItem(name: "after", value: cursor)]
                    return next
                }
            }
            var pages: [[Int]] = []
            for try await page in feed { pages.append(page.numbers) }
            #expect(pages == [[1, 2], [3, 4], [5]])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aPageThatFailsEndsTheSequenceWithTheLoadsError(kind: TransportKind) async throws {
        try await using(EpisodesServer.start(configure: { $0.addTransferRoutes() })) { base in
            let first = Resource<FeedPage>(get: base / "feed?count=5")
            let feed = kind.webservice().pages(of: first) { _ in Resource(get: base / "feed?after=9") }
            var pages: [[Int]] = []
            let error = try await #require(throws: WebserviceError.self) {
                for try await page in feed { pages.append(page.numbers) }
            }
            #expect(error.statusCode == 400)
            #expect(pages == [[1, 2]])
        }
    }

    /// `/pages/loop` links to itself with a new fragment each time, which is never sent: after the first page, one
    /// request over and over, which must end the sequence as a circle instead of loading on (here, up to 25 pages).
    @Test(arguments: TransportKind.allCases)
    func nextLinksThatDifferOnlyInTheirFragmentEndTheSequence(kind: TransportKind) async throws {
        try await using(EpisodesServer.start(configure: { $0.addTransferRoutes() })) { base in
            var pages: [[Int]] = []
            for try await page in kind.webservice().pages(of: Resource<[Int]>(get: base / "pages/loop?from=start")) {
                pages.append(page)
                if pages.count == 25 { break }
            }
            // Each page is the number of requests the server has served: two, one per page.
            #expect(pages == [[1], [2]])
        }
    }

    /// A page on another origin gets none of the credentials that the layers add to the first page's request.
    ///
    /// The first page's next link leads to the second server. `Authorization` comes from the session's configuration
    /// (`httpAdditionalHeaders`) with the URLSession transport, from the resource with AsyncHTTPClient; `X-Api-Key`
    /// from the resource, and `X-Session` from an `Authentication` for both origins.
    @Test(arguments: TransportKind.allCases)
    func aPageOnAnotherOriginGetsNoCredentialFromAnyLayer(kind: TransportKind) async throws {
        try await withTwoServers { base, other in
            var first = Resource<[String: String]>(get: base / "faults/headers", headers: ["X-Api-Key": "key-SECRET"])
            first.queryItems = [URLQueryItem(name: "next", value: (other / "faults/headers").absoluteString)]
            let authentication = Authentication(for: [base, other], headerField: "X-Session") { _ in "session-SECRET" }
            let webservice: Webservice
            switch kind {
            case .urlSession, .publicSession:
                let configuration = URLSessionConfiguration.ephemeral
                configuration.httpAdditionalHeaders = ["Authorization": "Bearer configured-SECRET"]
                webservice = Webservice(
                    transport: URLSessionTransport(configuration: configuration), middleware: [authentication])
            case .asyncHTTPClient, .publicAPI:
                webservice = kind.webservice(middleware: [authentication])
                first.headers["Authorization"] = "Bearer resource-SECRET"
            }
            var pages: [[String: String]] = []
            for try await page in webservice.pages(of: first) { pages.append(page) }
            try #require(pages.count == 2)
            for name in ["authorization", "x-api-key", "x-session"] {
                #expect(pages[0][name]?.contains("SECRET") == true, "\(name) didn't reach the first page")
                #expect(pages[1][name] == nil, "\(name) reached the other origin")
            }
            #expect(pages[1]["accept"] == "application/json", "harmless fields still go")
        }
    }
}
