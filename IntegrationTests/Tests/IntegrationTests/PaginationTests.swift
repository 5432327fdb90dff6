import EpisodesService
import Foundation
import Testing

@testable import ResourceKit

/// Pages followed by the server's `Link: <…>; rel="next"` header fields, one load each.
@Suite(.timeLimit(.minutes(1))) struct PaginationTests {
    @Test(arguments: TransportKind.allCases)
    func everyPageIsLoadedByItsNextLinkUntilTheLast(kind: TransportKind) async throws {
        try await using(EpisodesServer.start(configure: { $0.addTransferRoutes() })) { base in
            let first = Resource<[Int]>(get: base / "pages?count=7")
            var pages: [[Int]] = []
            for try await page in PageSequence.following(linksFrom: first, with: kind.webservice()) {
                pages.append(page)
            }
            #expect(pages == [[1, 2], [3, 4], [5, 6], [7]])
        }
    }
}
