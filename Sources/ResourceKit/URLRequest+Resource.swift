import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Creates the request that loads `resource`: its URL with its query items, method name, header fields, body
    /// bytes and timeout.
    ///
    /// It is synchronous and does no I/O, so tests can check exactly what goes on the wire:
    ///
    /// ```swift
    /// let request = URLRequest(resource: try Resource<Episode>(url: url, method: .post(newEpisode)))
    /// #expect(request.httpMethod == "POST")
    /// #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    /// ```
    ///
    /// - Parameter resource: The resource to request.
    public init<A>(resource: Resource<A>) {
        self.init(url: resource.url.appending(encodedQueryItems: resource.queryItems))
        httpMethod = resource.method.name
        httpBody = resource.method.body
        if let timeout = resource.timeout, timeout > 0, timeout < timeoutInterval {
            timeoutInterval = timeout
        }
        for (name, value) in resource.headers {
            setValue(value, forHTTPHeaderField: name)
        }
    }
}

extension URL {
    /// This URL with `items` percent-encoded and appended to its query.
    fileprivate func appending(encodedQueryItems items: [URLQueryItem]) -> URL {
        guard !items.isEmpty, var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            return self
        }
        let encoded = { (text: String) in HTTPSyntax.percentEncoded(text) ?? text }
        let added = items.map { item in encoded(item.name) + (item.value.map { "=" + encoded($0) } ?? "") }
        let existing = components.percentEncodedQuery.map { $0.isEmpty ? [] : [$0] } ?? []
        components.percentEncodedQuery = (existing + added).joined(separator: "&")
        return components.url ?? self
    }
}
