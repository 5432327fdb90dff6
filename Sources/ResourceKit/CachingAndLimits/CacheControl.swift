import Foundation

/// The `Cache-Control` directives ``ResponseCache`` acts on, read from a request's or a response's header field.
///
/// Directive names are matched case-insensitively and values may be quoted. Other directives (`private`, `public`,
/// `must-revalidate`, `s-maxage`, …) don't change what a client-side cache that never serves stale responses does,
/// and are ignored.
struct CacheControl: Equatable {
    /// `no-store`: the response must not be stored (in a request: don't use or fill the cache).
    var noStore = false
    /// `no-cache`: the response must not be served without revalidating it.
    ///
    /// ``ResponseCache`` stores such a response only to revalidate it. `no-cache="Set-Cookie"`, which names fields,
    /// counts the same.
    var noCache = false
    /// `max-age`: the seconds a response stays fresh.
    ///
    /// `nil` when absent or invalid; with several, the smallest.
    var maxAge: Int?

    /// Reads the directives of a `Cache-Control` field value such as `public, max-age=60`.
    ///
    /// - Parameter value: The field's value; `nil` when the field is missing.
    init(_ value: String?) {
        guard let value else { return }
        // On Unicode scalars, as HTTP is bytes: a `,` followed by a combining mark still ends a directive.
        for directive in value.unicodeScalars.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            let name = parts.first.map { asciiLowercased(String(HTTPSyntax.trimmed($0))) } ?? ""
            let argument = parts.count == 2 ? HTTPSyntax.unquoted(Substring(parts[1])) : nil
            switch name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "max-age":
                if let seconds = argument.flatMap(Self.seconds) {
                    maxAge = min(maxAge ?? seconds, seconds)
                }
            default: break
            }
        }
    }

    /// A delta-seconds value: digits only; too large a number means `Int32.max` seconds (about 68 years), as
    /// RFC 9111 asks.
    ///
    /// - Parameter text: The text to read, such as `"60"`.
    /// - Returns: The number of seconds, or `nil` when `text` is not a non-negative integer.
    static func seconds(_ text: String) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return min(Int(text) ?? Int(Int32.max), Int(Int32.max))
    }
}
