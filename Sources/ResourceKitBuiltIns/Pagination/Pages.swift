import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pages of a paginated resource, loaded one at a time as they are asked for.
///
/// The first page, then each page's next, until a page has none; ``ResourceLoading/pages(of:next:)`` hands them out as an
/// `AsyncThrowingStream`.
struct Pages<Page: Sendable>: Sendable {
    /// How the resource of the page after a page is found.
    enum Next: Sendable {
        /// By the `Link: <…>; rel="next"` header field of the page's response.
        case link
        /// By this function of the page; `nil` after the last one.
        case cursor(@Sendable (Page) -> Resource<Page>?)
    }

    /// Loads each page.
    let loader: any ResourceLoading
    /// The first page's resource.
    let first: Resource<Page>
    /// How the next page is found.
    let next: Next

    /// The pages as a stream that loads each page in the task that asks for it, so cancelling that task cancels the
    /// page's load.
    var stream: AsyncThrowingStream<Page, any Error> {
        let iterator = Turns(Iterator(pages: self, pending: .success(first)))
        return AsyncThrowingStream { try await iterator.next() }
    }

    /// The iterator's state between the stream's turns; the stream asks for one page at a time.
    private actor Turns {
        var iterator: Iterator

        init(_ iterator: Iterator) {
            self.iterator = iterator
        }

        func next() async throws -> Page? {
            var iterator = self.iterator
            defer { self.iterator = iterator }
            return try await iterator.next()
        }
    }

    /// Loads the pages one by one, each when it is asked for.
    struct Iterator: Sendable {
        /// The sequence being iterated.
        let pages: Pages
        /// The next page's resource, or the error that keeps it from being loaded; `nil` after the last page, an
        /// error or a cycle.
        var pending: Result<Resource<Page>, any Error>?
        /// The requests loaded so far, to end the sequence where the next page would be one of them again.
        var visited: Set<Visit> = []

        /// A request as far as a page depends on it: its method, body and URL as sent, without the fragment.
        struct Visit: Hashable {
            var method: HTTPMethod<Data>
            var url: String?

            init<A>(_ resource: Resource<A>) {
                method = resource.method
                // The fragment is never sent: `…/loop#1` and `…/loop#2` are one request. Cut at the first `#`, a byte.
                let text = Request(resource: resource).url.absoluteString.utf8
                url = String(decoding: text.prefix { $0 != UInt8(ascii: "#") }, as: UTF8.self)
            }
        }

        /// Loads the next page, or returns `nil` after the last one, an error or a next page that was loaded before.
        ///
        /// It throws what ``ResourceLoading/load(_:)`` throws, `CancellationError` once the task is cancelled, and
        /// ``WebserviceError/Reason/parsing(_:_:)`` after a page whose next link isn't followed.
        mutating func next() async throws -> Page? {
            guard let upcoming = pending else { return nil }
            pending = nil
            // A web service's relative page is resolved first, so that its next link is compared with the origin it
            // is sent to, and a cycle is found whichever way its pages are written.
            let resource = try (pages.loader as? Webservice).map { try $0.resolved(upcoming.get()) } ?? upcoming.get()
            try Task.checkCancellation()
            guard visited.insert(Visit(resource)).inserted else { return nil }
            let (page, next) = try await pages.loader.load(Self.withNext(resource, pages.next))
            pending = next
            return page
        }

        /// `resource` with a parse that also finds the resource of the page after the one it parses, or the error
        /// that keeps it from being loaded, thrown once the page itself has been returned.
        private static func withNext(
            _ resource: Resource<Page>,
            _ next: Next
        ) -> Resource<(Page, Result<Resource<Page>, any Error>?)> {
            switch next {
            case .link:
                resource.map(withResponse: { page, response in (page, linked(from: response, of: resource)) })
            case .cursor(let next):
                resource.map { page in (page, next(page).map { .success($0) }) }
            }
        }

        /// `resource` at the target of `response`'s `Link: <…>; rel="next"` (RFC 8288), with no query items of its
        /// own, since the link is the whole URL; `nil` when there is none.
        ///
        /// A target on another origin than `resource`'s gets only the header fields known to carry no credential
        /// (``isSafeHeader(_:extra:)``), as a redirect's does, and is marked to get none from any other layer either
        /// (`sendsCredentials`): the server chose it, not the caller. A link that isn't followed, to anything but
        /// `http` or `https`, or to another origin for a request with a body, is ``WebserviceError/Reason/parsing(_:_:)`` of
        /// the response that carried it, so a sequence never ends early unnoticed.
        private static func linked(
            from response: HTTPURLResponse?,
            of resource: Resource<Page>
        ) -> Result<Resource<Page>, any Error>? {
            guard let response, let url = response.url, let link = response.value(forHTTPHeaderField: "Link") else {
                return nil
            }
            do {
                guard let target = try LinkHeader.target(of: "next", in: link, relativeTo: url) else { return nil }
                var next = resource
                next.url = target
                next.queryItems = []
                if Origin(Request(resource: resource).url) != Origin(target) {
                    guard resource.method.body == nil, resource.bodyFile == nil else {
                        let reason = "The next link leads to another origin, where the request's body isn't sent."
                        throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason])
                    }
                    next.headers = next.headers.filter { name, _ in isSafeHeader(name) }
                    next.sendsCredentials = false
                }
                return .success(next)
            } catch {
                return .failure(WebserviceError(.parsing(error, Response(response, body: Data()))))
            }
        }
    }
}
