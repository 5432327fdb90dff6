import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The small pieces of URL and HTTP syntax that request building and header parsing share.
enum HTTPSyntax {
    /// RFC 3986's unreserved characters: the only ones a query item or path segment keeps unencoded.
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `string` with everything but the unreserved characters percent-encoded, so `+`, `&`, `=`, `/` and `;` arrive
    /// as data; `nil` when it can't be encoded (it holds an unpaired surrogate).
    static func percentEncoded(_ string: String) -> String? {
        string.addingPercentEncoding(withAllowedCharacters: unreserved)
    }

    /// `items` as a query or an `application/x-www-form-urlencoded` body.
    ///
    /// Each item is `name=value` with both percent-encoded, joined by `&`; an item without a value is its name alone.
    static func formEncoded(_ items: [URLQueryItem]) -> String {
        let encoded = { (text: String) in percentEncoded(text) ?? text }
        return items.map { item in encoded(item.name) + (item.value.map { "=" + encoded($0) } ?? "") }
            .joined(separator: "&")
    }

    /// A header parameter's value without surrounding whitespace, and, when it is a quoted string, without its quotes
    /// and backslash escapes (RFC 9110 §5.6.4).
    static func unquoted(_ value: some StringProtocol) -> String {
        let value = value.trimmingCharacters(in: .whitespaces)
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        var result = ""
        var escaped = false
        for character in value.dropFirst().dropLast() {
            if !escaped, character == "\\" {
                escaped = true
            } else {
                result.append(character)
                escaped = false
            }
        }
        return result
    }
}

extension URLRequest {
    /// Whether the request is for an `http` or `https` URL: the only ones ResourceKit's network transports send.
    var isHTTP: Bool {
        ["http", "https"].contains(url?.scheme?.lowercased())
    }

    /// Throws `URLError(.unsupportedURL)` unless the request is for an `http` or `https` URL.
    func requireHTTP() throws {
        guard isHTTP else {
            let reason = "Only http and https URLs are sent; use FileTransport to read file URLs."
            throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason])
        }
    }
}
