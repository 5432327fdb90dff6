import Foundation

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
        guard let link = links(in: value).first(where: { $0.relations.contains(relation.lowercased()) }) else {
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
    static func links(in value: String) -> [Link] {
        var links: [Link] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let target = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            // The parameters run to the next comma outside a quoted string.
            var parameters = ""
            var quoted = false
            var escaped = false
            while let character = rest.first {
                if !quoted, character == "," { break }
                if escaped {
                    escaped = false
                } else if quoted, character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted.toggle()
                }
                parameters.append(character)
                rest = rest.dropFirst()
            }
            rest = rest.dropFirst()
            links.append(Link(target: target, relations: relations(in: parameters)))
        }
        return links
    }

    /// The relation types of the first `rel` parameter in `parameters` (`; rel="next last"`), in lowercase.
    private static func relations(in parameters: String) -> [String] {
        for parameter in parameters.split(separator: ";") {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else {
                continue
            }
            return HTTPSyntax.unquoted(parts[1]).lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        }
        return []
    }
}
