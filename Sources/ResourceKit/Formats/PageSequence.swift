import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pages of a paginated resource, loaded one at a time as they are iterated: the first, then each page's next,
/// until a page has none.
///
/// Each page is a ``Webservice/load(_:)``, so its errors, cancellation, cache and middleware are a load's. A next
/// page already visited (a server sending the client round in a circle) ends the sequence.
struct PageSequence<Page: Sendable>: AsyncSequence, Sendable {
    typealias Element = Page

    let webservice: Webservice
    let first: Resource<Page>
    /// The resource of the page after `page`, which `resource` loaded with `response`; `nil` after the last page.
    let next: @Sendable (_ page: Page, _ response: HTTPURLResponse?, _ resource: Resource<Page>) -> Resource<Page>?

    func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self, pending: first)
    }

    struct Iterator: AsyncIteratorProtocol {
        let sequence: PageSequence
        var pending: Resource<Page>?
        var visited: Set<URL> = []

        mutating func next() async throws -> Page? {
            guard let resource = pending else { return nil }
            pending = nil
            let request = URLRequest(resource: resource)
            guard let url = request.url, visited.insert(url).inserted else { return nil }
            let following = sequence.next
            let (page, next) = try await sequence.webservice.load(
                resource.map { page, response in (page, following(page, response, resource)) })
            pending = next
            return page
        }
    }
}

extension PageSequence {
    /// The pages whose next page is the target of their response's `Link: <…>; rel="next"` header field (RFC 8288).
    static func following(linksFrom first: Resource<Page>, with webservice: Webservice) -> PageSequence {
        PageSequence(webservice: webservice, first: first) { _, response, resource in
            guard let response, let url = response.url,
                let link = response.value(forHTTPHeaderField: "Link"),
                let target = LinkHeader.target(of: "next", in: link, relativeTo: url)
            else { return nil }
            var next = resource
            next.url = target
            next.queryItems = []  // the link is the whole URL, query included
            return next
        }
    }
}
