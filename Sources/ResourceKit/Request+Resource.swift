import Foundation

extension Request {
    /// The request that loads `resource`: its URL with its query items, its method, its header fields with those of
    /// `added` that it doesn't set itself, and its body: its method's bytes, or its file.
    ///
    /// Inlined into ``Webservice``'s `exchange(_:streams:)`, which has `Resource<A>`'s metadata at hand already.
    @inline(__always)
    init<A>(resource: Resource<A>, addingHeaders added: [String: String]) {
        var fields: [HeaderField] = []
        fields.reserveCapacity(resource.headers.count + added.count)
        for (name, value) in resource.headers {
            fields.append(HeaderField(name: name, value: value))
        }
        for (name, value) in added where !resource.headers.keys.contains(where: { sameHeaderName($0, name) }) {
            fields.append(HeaderField(name: name, value: value))
        }
        let body: RequestBody? =
            if let file = resource.bodyFile { .file(file) } else { resource.method.body.map(RequestBody.init) }
        self.init(
            method: resource.method.name, url: resource.url.appending(encodedQueryItems: resource.queryItems),
            headerFields: fields, body: body)
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
