import Foundation

/// The parts of an error's one-line description: counts, a body's preview, an underlying error.
public enum ErrorText {
    /// The body's size and type, such as `12 bytes of application/json`.
    public static func count(_ body: Data) -> String {
        count(body.count)
    }

    /// `bytes` counted: `1 byte`, `12 bytes`.
    public static func count(_ bytes: Int) -> String {
        bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    /// The start of a textual body on one line, for error bodies such as `{"error": "not found"}`, redacted before
    /// it is cut, so that a credential the limit cuts doesn't show its first half.
    public static func preview(of body: Data, removing secrets: [String], shown: Bool) -> String? {
        let limit = 200
        // Text if its first bytes are: a UTF-8 character split by the limit has at most three bytes before it.
        guard shown,
            stride(from: min(body.count, limit), to: max(min(body.count, limit) - 4, 0), by: -1).contains(where: {
                String(data: body.prefix($0), encoding: .utf8) != nil
            })
        else { return nil }
        // The preview's bytes, and enough after them to end a credential that starts among them.
        let window = body.prefix(limit + 1024 + secrets.map(\.utf8.count).reduce(0, max))
        let redacted = Array(Redaction.scrub(String(decoding: window, as: UTF8.self), removing: secrets).utf8)
        // Cut before a character's first byte, never after one of its continuation bytes (`10xxxxxx`).
        var length = min(redacted.count, limit)
        while length < redacted.count, length > 0, redacted[length] & 0xC0 == 0x80 { length -= 1 }
        let line = String(String(decoding: redacted[..<length], as: UTF8.self).map { $0.isWhitespace ? " " : $0 })
        return length < redacted.count || window.count < body.count ? line + "…" : line
    }

    /// `text` in one line: each control character, line or paragraph separator escaped as Swift writes it in a
    /// literal (`\n`, `\u{1B}`), so a server's value quoted in a message can't start a log line of its own.
    public static func oneLine(_ text: String) -> String {
        var line = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator:
                line.append(contentsOf: scalar.escaped(asASCII: true).unicodeScalars)
            default:
                line.append(scalar)
            }
        }
        return String(line)
    }

    /// Describes a `DecodingError` by its coding path and a `URLError` by its code and reason; other errors as they
    /// describe themselves.
    public static func explain(_ error: any Error) -> String {
        if let error = error as? URLError {
            let reason = (error.userInfo[NSLocalizedDescriptionKey] as? String).map { ": \($0)" } ?? ""
            return "URLError \(error.code.rawValue)" + (name(of: error.code).map { " (\($0))" } ?? "") + reason
        }
        if let error = error as? DecodingError {
            return error.summary
        }
        return String(describing: error)
    }

    /// Names for the `URLError` codes a web service client meets most; Linux prints none of them by itself.
    private static func name(of code: URLError.Code) -> String? {
        switch code {
        case .cancelled: "cancelled"
        case .badURL: "bad URL"
        case .timedOut: "timed out"
        case .unsupportedURL: "unsupported URL"
        case .cannotFindHost: "cannot find host"
        case .cannotConnectToHost: "cannot connect to host"
        case .networkConnectionLost: "network connection lost"
        case .dnsLookupFailed: "DNS lookup failed"
        case .httpTooManyRedirects: "too many redirects"
        case .notConnectedToInternet: "not connected to the internet"
        case .badServerResponse: "bad server response"
        case .cannotParseResponse: "cannot parse response"
        case .secureConnectionFailed: "secure connection failed"
        case .serverCertificateUntrusted: "server certificate untrusted"
        default: nil
        }
    }
}
