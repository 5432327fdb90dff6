import ResourceKitCore
internal import ResourceKitSupport

extension ResourceLoading {
    /// The pages of a resource: each page's `next`, or, without `next`, the page that its response names in a
    /// `Link: <…>; rel="next"` header field (RFC 8288).
    ///
    /// Each page is a ``ResourceLoading/load(_:)``, made when the stream is asked for it. Without `next`, it loads
    /// `first` at the next link's URL, resolved against the response's, and the stream ends after a page without
    /// one; with `next`, the stream ends when `next` returns `nil`. See <doc:LoadingPages>.
    ///
    /// ```swift
    /// for try await page in webservice.pages(of: Resource<[Episode]>(get: episodesURL)) {
    ///     episodes += page
    /// }
    /// let feed = webservice.pages(of: Feed.first) { feed in feed.nextCursor.map(Feed.page(after:)) }
    /// ```
    ///
    /// - Parameters:
    ///   - first: The first page.
    ///   - next: The resource of the page after a page, or `nil` after the last one, for pages that lead to the next
    ///     by a cursor in the body; `nil` to follow the `Link` header field.
    /// - Returns: The pages, in order.
    public func pages<Page: Sendable>(
        of first: Resource<Page>,
        next: (@Sendable (Page) -> Resource<Page>?)? = nil
    ) -> AsyncThrowingStream<Page, any Error> {
        Pages(loader: self, first: first, next: next.map { .cursor($0) } ?? .link).stream
    }
}
