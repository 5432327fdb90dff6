extension ResourceLoading {
    /// The pages of a resource whose responses name the next page in a `Link: <…>; rel="next"` header field
    /// (RFC 8288).
    ///
    /// Each page is a ``ResourceLoading/load(_:)`` of `first` at the next link's URL, resolved against the response's, made when the
    /// stream is asked for it; the stream ends after a page without one. See <doc:LoadingPages>.
    ///
    /// ```swift
    /// for try await page in webservice.pages(of: Resource<[Episode]>(get: episodesURL)) {
    ///     episodes += page
    /// }
    /// ```
    public func pages<Page: Sendable>(of first: Resource<Page>) -> AsyncThrowingStream<Page, any Error> {
        Pages(loader: self, first: first, next: .link).stream
    }

    /// The pages of a resource whose pages lead to the next by a cursor in the body: `next` returns the next page's
    /// resource, or `nil` after the last page.
    ///
    /// Each page is a ``ResourceLoading/load(_:)``; see <doc:LoadingPages>.
    ///
    /// ```swift
    /// let feed = webservice.pages(of: Feed.first) { feed in feed.nextCursor.map(Feed.page(after:)) }
    /// for try await page in feed {
    ///     episodes += page.items
    /// }
    /// ```
    public func pages<Page: Sendable>(
        of first: Resource<Page>,
        next: @escaping @Sendable (Page) -> Resource<Page>?
    ) -> AsyncThrowingStream<Page, any Error> {
        Pages(loader: self, first: first, next: .cursor(next)).stream
    }
}
