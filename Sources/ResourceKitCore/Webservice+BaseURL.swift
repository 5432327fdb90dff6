import Foundation
internal import ResourceKitSupport

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
    /// path, with or without a leading `/`, without its `.` segments and with each `..` encoded (`%2E%2E`) so that
    /// it can't leave the base's path on one transport and not on another; its query after the base's; the base's
    /// scheme, host and port.
    ///
    /// A relative URL that names a host (`//other.example/x`), one without a base, or a base without a scheme (or a
    /// host, but for `file:`) throws ``WebserviceError/Reason/encoding(_:)`` with `URLError(.badURL)`: nothing is
    /// sent.
    static func resolved(_ url: URL, against baseURL: URL?) throws(WebserviceError) -> URL {
        guard let baseURL else { throw badURL("A resource with a relative URL needs a web service with a baseURL.") }
        guard let scheme = baseURL.scheme, baseURL.host != nil || scheme.lowercased() == "file" else {
            throw badURL("The web service's baseURL must be absolute, with a scheme and a host.")
        }
        guard url.host == nil else { throw badURL("A resource's relative URL can't name a host (//host/…).") }
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let relative = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { throw badURL("The relative URL can't be resolved against the web service's baseURL.") }
        // `./users:search` is how a first segment with a colon is written; a `.` segment says nothing else.
        let path = HTTPSyntax.encodingDotSegments(
            relative.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).filter { $0 != "." }
                .joined(separator: "/"))
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
            throw badURL("The relative URL can't be resolved against the web service's baseURL.")
        }
        return resolved
    }

    /// A ``WebserviceError/Reason/encoding(_:)`` error with `URLError(.badURL)` that says `reason`.
    private static func badURL(_ reason: String) -> WebserviceError {
        WebserviceError(.encoding(URLError(.badURL, userInfo: [NSLocalizedDescriptionKey: reason])))
    }
}
