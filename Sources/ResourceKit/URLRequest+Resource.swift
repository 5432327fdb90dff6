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
        self.init(resource: resource, addingHeaders: [:])
    }

    /// The request for `resource`, with those of `added`'s header fields that the resource doesn't set itself.
    ///
    /// Inlined into ``Webservice``'s `exchange(_:streams:)`, which has `Resource<A>`'s metadata at hand already.
    @inline(__always)
    init<A>(resource: Resource<A>, addingHeaders added: [String: String]) {
        self.init(url: resource.url.appending(encodedQueryItems: resource.queryItems))
        if resource.method.name != "GET" {
            httpMethod = resource.method.name
        }
        if let body = resource.method.body {
            httpBody = body
        }
        // The transport's own timer, a backstop for a transport that ignores cancellation: the pipeline's timeout keeps
        // the exact deadline and names it. In whole seconds (FoundationNetworking times a request under a second out at
        // once), and a second after the deadline, so that it never fires first.
        if let timeout = resource.timeout, timeout > 0, timeout.rounded(.up) + 1 < timeoutInterval {
            timeoutInterval = timeout.rounded(.up) + 1
        }
        var fields = resource.headers
        for (name, value) in added where !fields.keys.contains(where: { sameHeaderName($0, name) }) {
            fields[name] = value
        }
        setHeaderFields(fields)
    }

    /// Sets the request's header fields to `fields`, in one step when `setValue(_:forHTTPHeaderField:)` would store
    /// them as they are, and field by field through it otherwise.
    ///
    /// On Linux, `setValue` capitalizes and compares every name through `NSString`; a resource's fields rarely need
    /// that, as every value is valid and no name is there twice in different cases.
    private mutating func setHeaderFields(_ fields: [String: String]) {
        guard !fields.isEmpty else { return }
        var plain = fields.values.allSatisfy(isValidHeaderValue)
        if plain, fields.count > 1 {
            let names = Array(fields.keys)
            plain = names.indices.allSatisfy { index in
                names[(index + 1)...].allSatisfy { !sameHeaderName($0, names[index]) }
            }
        }
        guard plain else {
            for (name, value) in fields {
                setValue(value, forHTTPHeaderField: name)
            }
            return
        }
        allHTTPHeaderFields = fields
    }
}

extension URL {
    /// This URL with `items` percent-encoded and appended to its query.
    fileprivate func appending(encodedQueryItems items: [URLQueryItem]) -> URL {
        guard !items.isEmpty, var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            return self
        }
        let existing = components.percentEncodedQuery.map { $0.isEmpty ? [] : [$0] } ?? []
        components.percentEncodedQuery = (existing + [HTTPSyntax.formEncoded(items)]).joined(separator: "&")
        return components.url ?? self
    }
}
