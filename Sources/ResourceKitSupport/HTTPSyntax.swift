import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The small pieces of URL and HTTP syntax that request building and header parsing share.
public enum HTTPSyntax {
    /// RFC 3986's unreserved characters: the only ones a query item or path segment keeps unencoded.
    public static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `string` with everything but the unreserved characters percent-encoded, so `+`, `&`, `=`, `/` and `;` arrive
    /// as data; `nil` when it can't be encoded (it holds an unpaired surrogate).
    public static func percentEncoded(_ string: String) -> String? {
        string.addingPercentEncoding(withAllowedCharacters: unreserved)
    }

    /// `path`, a percent-encoded URL path, with each whole `.` or `..` segment encoded (`%2E`, `%2E%2E`), so that it
    /// reaches the server as written through every transport: curl, behind `URLSession` on Linux, would remove a dot
    /// segment (`/v1/../admin` becomes `/admin`) where another transport sends it.
    public static func encodingDotSegments(_ path: some StringProtocol) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            switch segment {
            case ".": "%2E"
            case "..": "%2E%2E"
            default: String(segment)
            }
        }.joined(separator: "/")
    }

    /// `items` as a query or an `application/x-www-form-urlencoded` body.
    ///
    /// Each item is `name=value` with both percent-encoded, joined by `&`; an item without a value is its name alone.
    public static func formEncoded(_ items: [URLQueryItem]) -> String {
        let encoded = { (text: String) in percentEncoded(text) ?? text }
        return items.map { item in encoded(item.name) + (item.value.map { "=" + encoded($0) } ?? "") }
            .joined(separator: "&")
    }

    /// A header parameter's value without surrounding whitespace, and, when it is a quoted string, without its quotes
    /// and backslash escapes (RFC 9110 §5.6.4).
    ///
    /// Read on Unicode scalars, as HTTP is bytes: a `"` or `\\` followed by a combining mark is one `Character`, but
    /// still a quote or an escape.
    public static func unquoted(_ value: some StringProtocol) -> String {
        let value = trimmed(Substring(value).unicodeScalars)
        guard value.count >= 2, value.first == "\"", value.last == "\"" else { return String(value) }
        var result = String.UnicodeScalarView()
        var escaped = false
        for scalar in value.dropFirst().dropLast() {
            if !escaped, scalar == "\\" {
                escaped = true
            } else {
                result.append(scalar)
                escaped = false
            }
        }
        return String(result)
    }

    /// The cookies of a `Set-Cookie` value that `HTTPURLResponse` joined from several fields with `, `, each as its own
    /// field had it.
    ///
    /// A comma separates two cookies when a cookie's name and `=` follow it (spaces, a token, spaces, `=`), as
    /// `HTTPCookie` splits such a value; the comma of an `Expires` date (`Wed, 21 Oct 2026 …`) is followed by a day,
    /// not a name. Read on bytes, in one pass. A cookie whose own attribute value holds a comma and a `name=`, which
    /// RFC 6265 allows only in `Path` and extensions, is split there too: the joined value can't tell.
    public static func cookies(joinedIn value: String) -> [String] {
        let bytes = Array(value.utf8)
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        // Whether a cookie's `name=` starts after the comma at `comma`.
        func startsCookie(after comma: Int) -> Bool {
            var index = comma + 1
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            let name = index
            while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
            guard index > name else { return false }
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            return index < bytes.count && bytes[index] == UInt8(ascii: "=")
        }
        var cookies: [String] = []
        var start = 0
        func addCookie(until end: Int) {
            var (first, last) = (start, end)
            while first < last, isSpace(bytes[first]) { first += 1 }
            while last > first, isSpace(bytes[last - 1]) { last -= 1 }
            cookies.append(String(decoding: bytes[first..<last], as: UTF8.self))
        }
        for index in bytes.indices where bytes[index] == UInt8(ascii: ",") && startsCookie(after: index) {
            addCookie(until: index)
            start = index + 1
        }
        addCookie(until: bytes.count)
        return cookies
    }

    /// `scalars` without the spaces and tabs around them: HTTP's optional whitespace.
    public static func trimmed(_ scalars: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
        let isSpace = { (scalar: Unicode.Scalar) in scalar == " " || scalar == "\t" }
        var trimmed = scalars.drop(while: isSpace)
        while let last = trimmed.last, isSpace(last) { trimmed.removeLast() }
        return trimmed
    }
}

extension URLRequest {
    /// Whether the request is for an `http` or `https` URL: the only ones ResourceKit's network transports send.
    public var isHTTP: Bool {
        ["http", "https"].contains(url?.scheme?.lowercased())
    }

    /// Throws `URLError(.unsupportedURL)` unless the request is for an `http` or `https` URL.
    public func requireHTTP() throws {
        guard isHTTP else {
            let reason = "Only http and https URLs are sent; use FileTransport to read file URLs."
            throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason])
        }
    }
}
