import EpisodesService
import Foundation
import ResourceKit
import Testing

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
}
