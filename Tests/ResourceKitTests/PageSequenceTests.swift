import Foundation
import ResourceKitTesting
import Testing

@testable import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Pages of a paginated resource, one load each, until the last.
@Suite struct PageSequenceTests {
    /// A server whose pages answer their own number, with a `Link` to the next one while there is one.
    private static func server(pages: Int, link: @escaping @Sendable (Int) -> String?) -> StubTransport {
        StubTransport.answering(
            .computed { request in
                let url = try #require(request.url)
                let number =
                    Int(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value ?? "") ?? 1
                guard number <= pages else { return .status(404) }
                let headers = (number < pages ? link(number + 1) : nil).map { ["Link": $0] } ?? [:]
                return .status(200, headers: headers, body: Data("\(number)".utf8))
            })
    }

    private static let firstPage = Resource<String>(
        url: baseURL.appendingPathComponent("items"), parse: { String(decoding: $0, as: UTF8.self) })

    private func pages(of transport: StubTransport) -> PageSequence<String> {
        .following(linksFrom: Self.firstPage, with: Webservice(transport: transport))
    }

    @Test func everyPageIsLoadedInOrderUntilOneHasNoNext() async throws {
        let transport = Self.server(pages: 3) { #"<?page=\#($0)>; rel="next""# }
        var loaded: [String] = []
        for try await page in pages(of: transport) { loaded.append(page) }
        #expect(loaded == ["1", "2", "3"])
        #expect(await transport.requests.count == 3)
    }

    @Test func aFailingPageEndsTheSequenceWithItsErrorAfterThePagesBefore() async throws {
        let transport = Self.server(pages: 2) { #"<?page=\#($0 + 5)>; rel="next""# }
        var loaded: [String] = []
        await #expect(throws: WebserviceError.self) {
            for try await page in pages(of: transport) { loaded.append(page) }
        }
        #expect(loaded == ["1"])
    }

    @Test func aCircleOfNextLinksEnds() async throws {
        let transport = Self.server(pages: 5) { $0 == 3 ? #"<?page=2>; rel="next""# : #"<?page=\#($0)>; rel="next""# }
        var loaded: [String] = []
        for try await page in pages(of: transport) { loaded.append(page) }
        #expect(loaded == ["1", "2"])
    }

    @Test func aCursorInTheBodyLeadsToTheNextPage() async throws {
        let transport = Self.server(pages: 3) { _ in nil }
        let sequence = PageSequence(webservice: Webservice(transport: transport), first: Self.firstPage) {
            page, _, resource in
            guard let number = Int(page), number < 3 else { return nil }
            var next = resource
            next.queryItems = [URLQueryItem(name: "page", value: "\(number + 1)")]
            return next
        }
        var loaded: [String] = []
        for try await page in sequence { loaded.append(page) }
        #expect(loaded == ["1", "2", "3"])
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellationEndsTheIterationPromptly() async throws {
        let sequence = PageSequence<String>(
            webservice: Webservice(transport: StubTransport.stalling), first: Gate.resource("a")
        ) { _, _, resource in resource }
        let iterating = Task {
            for try await _ in sequence {}
        }
        try await Task.sleep(nanoseconds: 20_000_000)
        iterating.cancel()
        await #expect(throws: CancellationError.self) { try await iterating.value }
    }
}
