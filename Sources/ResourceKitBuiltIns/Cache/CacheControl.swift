import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// The `Cache-Control` directives ``ResponseCache`` acts on, read from a request's or a response's header field.
///
/// Directive names are matched case-insensitively and values may be quoted. Other directives (`public`, `s-maxage`,
/// …) don't change what a client-side cache does, and are ignored.
struct CacheControl: Equatable {
    /// `no-store`: the response must not be stored (in a request: don't use or fill the cache).
    var noStore = false
    /// `no-cache`: the response must not be served without revalidating it.
    ///
    /// Under ``CachePolicy/http``, such a response answers only once the server confirmed it. `no-cache="Set-Cookie"`,
    /// which names fields, counts the same.
    var noCache = false
    /// `max-age`: the seconds a response stays fresh.
    ///
    /// `nil` when absent or invalid; with several, the smallest.
    var maxAge: Int?
    /// `stale-while-revalidate`: the seconds past its lifetime a response may answer while it is revalidated in the
    /// background (RFC 5861); `nil` when absent, invalid, or ruled out by `must-revalidate` or `no-cache`.
    var staleWhileRevalidate: Int? { mayServeStale ? whileRevalidate : nil }
    /// `stale-if-error`: the seconds past its lifetime a response may answer when the server fails (RFC 5861); `nil`
    /// when absent, invalid, or ruled out by `must-revalidate` or `no-cache`.
    var staleIfError: Int? { mayServeStale ? ifError : nil }
    /// `must-revalidate`: a stale response must not answer without the server's confirmation.
    var mustRevalidate = false
    /// `private`: the response is for one user; a store several processes share must not keep it.
    var isPrivate = false
    private var whileRevalidate: Int?
    private var ifError: Int?

    /// Whether HTTP lets a stale response answer at all: not with `must-revalidate` or `no-cache`.
    private var mayServeStale: Bool { !mustRevalidate && !noCache }

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
            case "max-age": maxAge = Self.smallest(maxAge, argument)
            case "stale-while-revalidate": whileRevalidate = Self.smallest(whileRevalidate, argument)
            case "stale-if-error": ifError = Self.smallest(ifError, argument)
            case "must-revalidate": mustRevalidate = true
            case "private": isPrivate = true
            default: break
            }
        }
    }

    /// The smaller of `current` and the seconds `argument` gives, as with several of one directive the smallest counts.
    private static func smallest(_ current: Int?, _ argument: String?) -> Int? {
        guard let seconds = argument.flatMap(Self.seconds) else { return current }
        return min(current ?? seconds, seconds)
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
