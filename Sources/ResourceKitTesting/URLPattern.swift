import Foundation
import ResourceKit

/// Which URLs a stub route answers: a path such as `/episodes/*/media`, or a whole URL such as
/// `https://api.example.com/episodes/**`.
///
/// `*` matches one path segment and `**` the rest of the path, however many segments; other segments compare with
/// percent-encoding removed, so `/users/José` matches `/users/Jos%C3%A9`. A pattern with a scheme and host matches
/// only that scheme and host (in any letter case), and the port it names if it names one (443 is `https`'s own), so
/// `http://localhost/**` matches a test server on any port; a path alone matches any origin. The query is ignored
/// unless the pattern has one, which must then be the URL's exactly.
///
/// ```swift
/// URLPattern("/episodes/*").matches(URL(string: "https://api.example.com/episodes/1")!)  // true
/// ```
public struct URLPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let description: String
    private let origin: Origin?
    /// Whether the pattern names its port, which the URL's must then be; otherwise any port matches.
    private let namesPort: Bool
    private let segments: [Substring]
    private let query: String?

    /// Reads `pattern`.
    public init(_ pattern: String) {
        description = pattern
        var rest = Substring(pattern)
        if let components = URLComponents(string: pattern), components.scheme != nil, components.host != nil,
            let url = components.url
        {
            origin = Origin(url)
            namesPort = components.port != nil
            rest = Substring(components.percentEncodedPath)
        } else {
            origin = nil
            namesPort = false
        }
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        } else {
            query = URLComponents(string: pattern)?.percentEncodedQuery
        }
        segments = rest.split(separator: "/")
    }

    /// Whether `url` is one this pattern names.
    public func matches(_ url: URL) -> Bool {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return false }
        if let origin {
            let target = Origin(url)
            guard target.scheme == origin.scheme, target.host == origin.host, !namesPort || target.port == origin.port
            else { return false }
        }
        if let query, components.percentEncodedQuery != query { return false }
        return Self.matches(segments[...], components.percentEncodedPath.split(separator: "/")[...])
    }

    private static func matches(_ pattern: ArraySlice<Substring>, _ path: ArraySlice<Substring>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" { return true }
        guard let segment = path.first, first == "*" || decoded(first) == decoded(segment) else { return false }
        return matches(pattern.dropFirst(), path.dropFirst())
    }

    /// `segment` without percent-encoding, or as written when it can't be decoded.
    private static func decoded(_ segment: Substring) -> String { segment.removingPercentEncoding ?? String(segment) }

    /// Whether two patterns are written the same.
    public static func == (lhs: URLPattern, rhs: URLPattern) -> Bool { lhs.description == rhs.description }

    /// Hashes the pattern as written.
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
