import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// The links of a `Link` header field (RFC 8288), such as `<https://api.example.com/items?page=2>; rel="next"`: where
/// the next page of a paginated resource is.
enum LinkHeader {
    /// The target of the first link whose relation types include `relation` (matched in any letter case), resolved
    /// against `base`; `nil` when there is none.
    ///
    /// - Parameters:
    ///   - relation: The relation type, such as `next`.
    ///   - value: The field's value; several fields are joined with `,`.
    ///   - base: The URL of the response that carried the field, for relative targets.
    /// - Returns: The target URL.
    /// - Throws: `URLError(.unsupportedURL)` when the target is no URL, or not an `http` or `https` one: a server must
    ///   not send a client to a local file.
    static func target(of relation: String, in value: String, relativeTo base: URL) throws(URLError) -> URL? {
        guard let link = links(in: value).first(where: { $0.relations.contains(asciiLowercased(relation)) }) else {
            return nil
        }
        guard let url = URL(string: link.target, relativeTo: base)?.absoluteURL,
            ["http", "https"].contains(url.scheme?.lowercased())
        else {
            let reason = "The \(relation) link <\(link.target.prefix(200))> is not an http or https URL."
            throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason])
        }
        return url
    }

    /// A link: its target as written, and its relation types in lowercase.
    struct Link: Equatable {
        var target: String
        var relations: [String]
    }

    /// The links of `value`, in order; malformed link-values are skipped.
    ///
    /// Read on Unicode scalars, as HTTP is bytes: a `>`, `"` or `,` followed by a combining mark is one `Character`,
    /// but still ends a target, a quoted string or a link.
    static func links(in value: String) -> [Link] {
        var links: [Link] = []
        var rest = value.unicodeScalars[...]
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let target = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            // The parameters run to the next comma outside a quoted string.
            var end = rest.startIndex
            var quoted = false
            var escaped = false
            while end < rest.endIndex {
                let scalar = rest[end]
                if !quoted, scalar == "," { break }
                if escaped {
                    escaped = false
                } else if quoted, scalar == "\\" {
                    escaped = true
                } else if scalar == "\"" {
                    quoted.toggle()
                }
                end = rest.index(after: end)
            }
            links.append(Link(target: target, relations: relations(in: rest[..<end])))
            rest = rest[end...].dropFirst()
        }
        return links
    }

    /// The relation types of the first `rel` parameter in `parameters` (`; rel="next last"`), in lowercase.
    private static func relations(in parameters: Substring.UnicodeScalarView) -> [String] {
        for parameter in parameters.split(separator: ";") {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, sameHeaderName(String(HTTPSyntax.trimmed(parts[0])), "rel") else { continue }
            return asciiLowercased(HTTPSyntax.unquoted(Substring(parts[1]))).unicodeScalars
                .split { $0 == " " || $0 == "\t" }.map(String.init)
        }
        return []
    }
}
