import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `User-Agent` ResourceKit's transports send when neither the request nor the session sets one.
public let defaultUserAgent = "ResourceKit/0.1"

/// `text` with its ASCII letters in lowercase and nothing else changed, as HTTP compares names.
///
/// Unlike `lowercased()`, which turns the Kelvin sign in `X-\u{212A}ey` into the `k` of `x-key`, a name another
/// one.
public func asciiLowercased(_ text: String) -> String {
    String(decoding: text.utf8.map(asciiLowercase), as: UTF8.self)
}

/// `byte` in lowercase when it is an ASCII capital letter, otherwise as it is.
public func asciiLowercase(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
}

/// Whether `value` has no control character but tab, as RFC 9110 requires of a header field's value.
public func isValidHeaderValue(_ value: String) -> Bool {
    allBytes(of: value) { $0 == UInt8(ascii: "\t") || ($0 >= 0x20 && $0 != 0x7F) }
}

/// Whether every UTF-8 byte of `text` satisfies `predicate`, read from the string's storage when it is contiguous.
public func allBytes(of text: String, satisfy predicate: (UInt8) -> Bool) -> Bool {
    text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? text.utf8.allSatisfy(predicate)
}

/// Whether `byte` may appear in a header name: RFC 9110's `tchar`.
public func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
        UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
        true
    default: false
    }
}

/// Whether two header names are the same name: equal but for the case of ASCII letters.
///
/// It allocates nothing, unlike comparing `lowercased()` copies.
public func sameHeaderName(_ name: String, _ other: String) -> Bool {
    name == other
        || (name.utf8.count == other.utf8.count
            && name.utf8.elementsEqual(other.utf8) { asciiLowercase($0) == asciiLowercase($1) })
}

extension Dictionary where Key == String, Value == String {
    /// These fields as a cache or a deduplication key compares them: names in ASCII lowercase, names and values as
    /// UTF-8 bytes, `excluded` left out.
    ///
    /// Bytes, because equal strings can be different bytes: `"caf\u{E9}" == "cafe\u{301}"`, but a server gets them as
    /// two credentials.
    public func keyBytes(excluding excluded: String? = nil) -> [[UInt8]: [UInt8]] {
        var key: [[UInt8]: [UInt8]] = [:]
        for (name, value) in self where excluded.map({ !sameHeaderName(name, $0) }) ?? true {
            key[Array(asciiLowercased(name).utf8)] = Array(value.utf8)
        }
        return key
    }

    /// These fields plus `Accept: mediaType` and, when a body is sent, `Content-Type` of `mediaType`, each unless the
    /// fields name it already (in any letter case): the defaults of the JSON and property-list formats.
    public func addingFormatDefaults(_ mediaType: String, sendsBody: Bool) -> [String: String] {
        addingFormatDefaults(accept: mediaType, contentType: sendsBody ? mediaType : nil)
    }

    /// These fields plus `Accept` and `Content-Type` of the values given, each unless the fields name it already (in
    /// any letter case); `nil` adds nothing.
    public func addingFormatDefaults(accept: String?, contentType: String?) -> [String: String] {
        var result = self
        let names = Set(keys.map { $0.lowercased() })
        if let accept, !names.contains("accept") {
            result["Accept"] = accept
        }
        if let contentType, !names.contains("content-type") {
            result["Content-Type"] = contentType
        }
        return result
    }
}

extension HTTPURLResponse {
    /// The response's header fields as strings.
    public var headerFields: [String: String] {
        var fields: [String: String] = [:]
        for case (let name as String, let value as String) in allHeaderFields {
            fields[name] = value
        }
        return fields
    }
}

/// The header fields known to carry no credential: content negotiation, the body's own description, caching, ranges,
/// the connection's own fields and `User-Agent`, on requests and responses.
///
/// It is an allowlist because a blocklist can't win: APIs carry credentials in fields of any name (`X-Auth`, `DPoP`,
/// `X-JWT-Assertion`, …). A redirect to another origin keeps only these fields, and error descriptions and `dump`
/// show only their values.
public let safeHeaderNames: Set<String> = [
    "accept", "accept-charset", "accept-encoding", "accept-language", "accept-ranges", "age", "allow", "cache-control",
    "connection", "content-encoding", "content-language", "content-length", "content-range", "content-type", "date",
    "etag", "expires", "keep-alive", "last-modified", "pragma", "range", "retry-after", "server", "user-agent", "vary",
    "via",
]

/// Whether a header field with this name is in ``safeHeaderNames`` or `extra` (lowercased), in any letter case.
public func isSafeHeaderName(_ name: String, extra: Set<String> = []) -> Bool {
    let name = asciiLowercased(name)
    return safeHeaderNames.contains(name) || extra.contains(name)
}
