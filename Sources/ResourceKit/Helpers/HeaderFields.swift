import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `User-Agent` ResourceKit's transports send when neither the request nor the session sets one.
let defaultUserAgent = "ResourceKit/0.1"

/// `text` with its ASCII letters in lowercase and nothing else changed, as HTTP compares names.
///
/// Unlike `lowercased()`, which turns the Kelvin sign in `X-\u{212A}ey` into the `k` of `x-key`, a name another
/// one.
func asciiLowercased(_ text: String) -> String {
    String(decoding: text.utf8.map(asciiLowercase), as: UTF8.self)
}

/// `byte` in lowercase when it is an ASCII capital letter, otherwise as it is.
func asciiLowercase(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
}

/// Checks that every header field's name is an HTTP token and its value has no control character but tab, as RFC 9110
/// requires: a CR or LF from a server-supplied token would otherwise split the request, or be dropped silently.
///
/// - Throws: ``WebserviceError/Reason/encoding(_:)`` with an `EncodingError.invalidValue` that names the field; the value is
///   never part of the error.
func validateHeaderFields(_ fields: [String: String]) throws(WebserviceError) {
    for (name, value) in fields {
        try validateHeaderField(name: name, value: value)
    }
}

/// Checks one header field as ``validateHeaderFields(_:)`` checks each.
func validateHeaderField(name: String, value: String) throws(WebserviceError) {
    let validName = !name.isEmpty && allBytes(of: name, satisfy: isTokenByte)
    guard validName, isValidHeaderValue(value) else {
        let field = validName ? name : Redaction.mark
        let reason =
            "The header field \"\(field)\" has a \(validName ? "value" : "name") that HTTP forbids, such as "
            + "one with a line break or another control character; the request was not sent."
        throw WebserviceError(
            .encoding(EncodingError.invalidValue(field, .init(codingPath: [], debugDescription: reason))))
    }
}

/// Whether `value` has no control character but tab, as RFC 9110 requires of a header field's value.
func isValidHeaderValue(_ value: String) -> Bool {
    allBytes(of: value) { $0 == UInt8(ascii: "\t") || ($0 >= 0x20 && $0 != 0x7F) }
}

/// Whether every UTF-8 byte of `text` satisfies `predicate`, read from the string's storage when it is contiguous.
private func allBytes(of text: String, satisfy predicate: (UInt8) -> Bool) -> Bool {
    text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? text.utf8.allSatisfy(predicate)
}

/// Whether `byte` may appear in a header name: RFC 9110's `tchar`.
func isTokenByte(_ byte: UInt8) -> Bool {
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
func sameHeaderName(_ name: String, _ other: String) -> Bool {
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
    func keyBytes(excluding excluded: String? = nil) -> [[UInt8]: [UInt8]] {
        var key: [[UInt8]: [UInt8]] = [:]
        for (name, value) in self where excluded.map({ !sameHeaderName(name, $0) }) ?? true {
            key[Array(asciiLowercased(name).utf8)] = Array(value.utf8)
        }
        return key
    }

    /// These fields plus `Accept: mediaType` and, when a body is sent, `Content-Type` of `mediaType`, each unless the
    /// fields name it already (in any letter case): the defaults of the JSON and property-list formats.
    func addingFormatDefaults(_ mediaType: String, sendsBody: Bool) -> [String: String] {
        addingFormatDefaults(accept: mediaType, contentType: sendsBody ? mediaType : nil)
    }

    /// These fields plus `Accept` and `Content-Type` of the values given, each unless the fields name it already (in
    /// any letter case); `nil` adds nothing.
    func addingFormatDefaults(accept: String?, contentType: String?) -> [String: String] {
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
    var headerFields: [String: String] {
        var fields: [String: String] = [:]
        for case (let name as String, let value as String) in allHeaderFields {
            fields[name] = value
        }
        return fields
    }
}

extension [HeaderField] {
    /// These fields as a cache or a deduplication key compares them, as `[String: String]`'s `keyBytes(excluding:)`
    /// does: the values of a repeated name joined by commas, in order.
    func keyBytes(excluding excluded: String? = nil) -> [[UInt8]: [UInt8]] {
        var key: [[UInt8]: [UInt8]] = [:]
        for field in self where excluded.map({ !sameHeaderName(field.name, $0) }) ?? true {
            let name = [UInt8](asciiLowercased(field.name).utf8)
            if key[name] != nil { key[name]?.append(contentsOf: ", ".utf8) }
            key[name, default: []].append(contentsOf: field.value.utf8)
        }
        return key
    }
}
