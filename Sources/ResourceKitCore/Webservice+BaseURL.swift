import Foundation

extension Webservice {
    /// `resource` with its URL as this web service sends it: a relative URL resolved against ``baseURL``, an absolute
    /// one as it is; for code that compares the URL before loading, as pagination does with its next links.
    ///
    /// - Throws: ``WebserviceError/Reason/encoding(_:)`` with `URLError(.badURL)` for a relative URL that names a
    ///   host, or that has no absolute ``baseURL`` to be resolved against.
    public func resolved<A>(_ resource: Resource<A>) throws(WebserviceError) -> Resource<A> {
        guard resource.url.scheme == nil else { return resource }
        var resolved = resource
        resolved.url = try Self.resolved(resource.url, against: baseURL)
        return resolved
    }

    /// `url`, a relative URL such as `episodes?page=2`, resolved against `baseURL`: its path appended to the base's
    /// path, with or without a leading `/`, and its query after the base's; the base's scheme, host and port.
    ///
    /// A relative URL that names a host (`//other.example/x`), or one with no base to resolve against, throws
    /// ``WebserviceError/Reason/encoding(_:)`` with `URLError(.badURL)`: nothing is sent.
    static func resolved(_ url: URL, against baseURL: URL?) throws(WebserviceError) -> URL {
        guard let baseURL, baseURL.scheme != nil, baseURL.host != nil, url.host == nil,
            var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let relative = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            let reason =
                baseURL == nil
                ? "A resource with a relative URL needs a web service with a baseURL."
                : "A resource's relative URL can't name a host, and the baseURL must be absolute."
            throw WebserviceError(.encoding(URLError(.badURL, userInfo: [NSLocalizedDescriptionKey: reason])))
        }
        let path = relative.percentEncodedPath
        if !path.isEmpty {
            let base = components.percentEncodedPath
            components.percentEncodedPath =
                (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/"
                + (path.hasPrefix("/") ? path.dropFirst() : path[...])
        }
        let queries = [components.percentEncodedQuery, relative.percentEncodedQuery].compactMap { $0 }
            .filter { !$0.isEmpty }
        components.percentEncodedQuery = queries.isEmpty ? nil : queries.joined(separator: "&")
        components.percentEncodedFragment = relative.percentEncodedFragment
        guard let resolved = components.url else {
            throw WebserviceError(.encoding(URLError(.badURL)))
        }
        return resolved
    }
}
