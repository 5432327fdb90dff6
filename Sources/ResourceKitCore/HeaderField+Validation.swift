import Foundation
internal import ResourceKitSupport

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

extension HeaderField {
    /// Checks that the name is an HTTP token and the value has no control character but tab, as RFC 9110 requires.
    ///
    /// - Throws: ``WebserviceError/Reason/encoding(_:)``, naming the field but never its value.
    public func validate() throws(WebserviceError) {
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
