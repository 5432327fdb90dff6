import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Request {
    /// The request as a `curl` command to paste into a terminal or a bug report, with every credential masked.
    ///
    /// Header fields keep their values only when they are known to carry no credential (an allowlist, as for
    /// redirects); the URL loses its userinfo and credential query values, and a text body its credential fields and
    /// the request's secrets. A body that isn't UTF-8 text is described, not shown. Fields are sorted by name.
    public var cURLDescription: String {
        let secrets = Redaction.secrets(url: url, fields: headerFields.lazy.map { ($0.name, $0.value) })
        var lines = ["curl"]
        switch method {
        case "GET": break
        case "HEAD": lines[0] += " --head"
        case let method: lines[0] += " -X " + Self.shellQuoted(method)
        }
        let url = Redaction.redacted(url, removing: secrets)?.absoluteString ?? ""
        lines[0] += " " + Self.shellQuoted(url)
        for (name, value) in headerFields.dictionary.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            let shown = isSafeHeader(name) ? Redaction.scrub(value, removing: secrets) : Redaction.mark
            lines.append("-H " + Self.shellQuoted("\(name): \(shown)"))
        }
        if let body = try? body?.bytes(), !body.isEmpty {
            // Text only, without control characters that could rewrite a terminal or a log viewer.
            if let text = String(data: body, encoding: .utf8),
                !text.unicodeScalars.contains(where: {
                    $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t"
                })
            {
                // A leading `&` makes a form body's first field a parameter that the redaction checks as well; it
                // is dropped as a scalar, since with a combining mark after it, it would be one `Character`.
                let scrubbed = Redaction.scrub("&" + text, removing: secrets).unicodeScalars.dropFirst()
                lines.append("--data-binary " + Self.shellQuoted(String(scrubbed)))
            } else {
                lines.append("--data-binary @body  # \(body.count) bytes that are not plain UTF-8 text, not shown")
            }
        }
        return lines.joined(separator: " \\\n  ")
    }

    /// `text` in single quotes for a POSIX shell, each `'` in it closed, escaped and reopened.
    ///
    /// Matched on Unicode scalars, as a shell reads bytes: a `'` followed by a combining mark is one `Character`, which
    /// `replacingOccurrences(of: "'")` would leave unescaped.
    private static func shellQuoted(_ text: String) -> String {
        var quoted = String.UnicodeScalarView(["'"])
        for scalar in text.unicodeScalars {
            if scalar == "'" {
                quoted.append(contentsOf: #"'\''"#.unicodeScalars)
            } else {
                quoted.append(scalar)
            }
        }
        quoted.append("'")
        return String(quoted)
    }
}

extension WebserviceEvent {
    /// The request as a `curl` command with its credentials masked; see ``Request/cURLDescription``.
    public var cURLDescription: String { request().cURLDescription }
}
