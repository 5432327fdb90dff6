import Foundation
internal import ResourceKitSupport

extension Request {
    /// The request that loads `resource`: its URL with its query items, its method, its header fields, and its body: its method's bytes, or its file.
    ///
    /// Inlined into ``Webservice``'s `exchange(_:streams:)`, which has `Resource<A>`'s metadata at hand already.
    @inline(__always)
    public init<A>(resource: Resource<A>) {
        let fields = resource.headers.map { HeaderField(name: $0.key, value: $0.value) }
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
