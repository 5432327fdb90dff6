import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Keeps credentials out of everything ResourceKit prints: URL userinfo, credential query values, `Bearer`, `Basic`,
/// `Token` and `DPoP` tokens, JSON credential fields, and the secrets a request carried.
public enum Redaction {
    /// What a credential is replaced with.
    public static let mark = "REDACTED"

    /// Whether a query item, form, header or JSON field with this name holds a credential: one of `names` (`api_key`,
    /// `password`, `pin`, …), or a name with a credential word (`access_token`, `x-sig`) that isn't a page cursor.
    public static func isCredentialName(_ name: some StringProtocol) -> Bool {
        isCredentialName(name, in: names.value)
    }

    /// ``isCredentialName(_:)`` with `names` read once, for a caller that asks for many names.
    public static func isCredentialName(_ name: some StringProtocol, in names: Names) -> Bool {
        if isCredentialFieldName(name, in: names) { return true }
        // ASCII case folding on bytes: this runs for every `name=` in a text, so it avoids Foundation's string search.
        let folded = name.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
        let hasCredentialWord = credentialWords.contains { word in
            folded.count >= word.count
                && (0...(folded.count - word.count)).contains { folded[$0..<$0 + word.count].elementsEqual(word) }
        }
        return hasCredentialWord && !paginationTokens.contains(bare(name))
    }

    /// Whether a JSON field with this name holds nothing but credentials, whatever its value's type: one of `names`,
    /// such as `api_key`, `pin` or `tokens`, but not `prompt_tokens` or `author_id`, which hold a count or an
    /// identifier.
    public static func isCredentialFieldName(_ name: some StringProtocol, in names: Names) -> Bool {
        names.matched.contains(bare(name))
    }

    /// `name`'s bytes in ASCII lowercase without `_` and `-`, as the name sets below hold them: `Page_Token` is
    /// `pagetoken`.
    private static func bare(_ name: some StringProtocol) -> [UInt8] {
        name.utf8.compactMap { byte in
            switch byte {
            case UInt8(ascii: "_"), UInt8(ascii: "-"): nil
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte | 0x20
            default: byte
            }
        }
    }

    /// The names whose values are credentials, whatever their type, as `WebserviceError.credentialNames` holds them
    /// and as they are matched: in ASCII lowercase without `_` and `-`.
    public struct Names: Sendable {
        /// The names as given.
        public let given: Set<String>
        /// The names as matched.
        public let matched: Set<[UInt8]>

        /// The names `given`.
        public init(_ given: Set<String>) {
            self.given = given
            matched = Set(given.map(Redaction.bare))
        }
    }

    /// `WebserviceError.credentialNames`, the built-in ones unless a caller changed them.
    public static let names = ProcessWide(Names(builtInCredentialNames))

    /// The names that hold credentials in real APIs, whatever their value's type: the built-in
    /// `WebserviceError.credentialNames`, listed in ErrorHandling.md too.
    public static let builtInCredentialNames: Set<String> = [
        // Passwords and one-time codes.
        "password", "passwd", "pwd", "passphrase", "passcode", "pin", "otp", "totp", "otp_code", "mfa_code",
        "two_factor_code", "verification_code", "security_code", "backup_codes", "recovery_codes", "cvv", "cvc",
        // Keys and secrets: OpenWeatherMap's `appid`, AWS's `access_key`, Azure's `subscription-key`, ….
        "key", "keys", "api_key", "api_keys", "x_api_key", "app_key", "appid", "access_key", "secret_key",
        "private_key", "license_key", "consumer_key", "subscription_key", "ocp_apim_subscription_key", "secret",
        "secrets", "client_secret", "code_verifier",
        // Tokens, signatures and sessions.
        "token", "tokens", "access_token", "refresh_token", "id_token", "auth_token", "session_token", "signature",
        "hmac", "credential", "credentials", "sid", "session_id", "phpsessid",
    ]

    /// The names with a credential word that are known to name a page cursor instead, such as `pageToken`.
    ///
    /// In lowercase without `_` and `-`. A cursor isn't a credential, and masking it would make every page's URL the
    /// same.
    private static let paginationTokens: Set<[UInt8]> = Set(
        ["pagetoken", "nextpagetoken", "nexttoken", "continuationtoken", "paginationtoken"].map { Array($0.utf8) })

    /// The parts of a name, in lowercase, that mark it as a credential's.
    private static let credentialWords: [[UInt8]] = [
        "token", "secret", "pass", "pwd", "auth", "sig", "credential", "session", "apikey", "api_key", "api-key", "jwt",
        "assertion", "private",
    ].map { Array($0.utf8) }

    /// The credentials `request` carries: the values of its unsafe header fields and the credentials inside them
    /// (the token after `Bearer`, each cookie's value, …), its URL's user and password, and its credential query
    /// values, each as it is and as the URL encodes it.
    public static func secrets(of request: URLRequest) -> [String] {
        secrets(url: request.url, headers: request.allHTTPHeaderFields ?? [:])
    }

    /// The credentials of a request for `url` with the header fields `headers`, as ``secrets(of:)`` finds them.
    public static func secrets(url: URL?, headers: [String: String]) -> [String] {
        secrets(url: url, fields: headers.lazy.map { ($0.key, $0.value) })
    }

    /// The credentials of a request for `url` with the header fields `fields`, as ``secrets(of:)`` finds them.
    public static func secrets(url: URL?, fields: some Sequence<(String, String)>) -> [String] {
        var secrets: [String?] = []
        for (name, value) in fields where !isSafeHeaderName(name) {
            secrets.append(value)
            secrets += sameHeaderName(name, "Cookie") ? cookieValues(in: value) : credentials(inHeaderValue: value)
        }
        if let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) {
            secrets += [components.user, components.password, components.percentEncodedUser]
            secrets.append(components.percentEncodedPassword)
            let names = names.value
            for items in [components.queryItems, components.percentEncodedQueryItems] {
                secrets += (items ?? []).map { isCredentialName($0.name, in: names) ? $0.value : nil }
            }
        }
        // Short values ("1", "on") would blank out unrelated text, and can't be told apart from it anyway.
        return Array(Set(secrets.compactMap { $0 }.filter { $0.unicodeScalars.count >= 4 }))
    }

    /// The values of the cookies of a `Cookie` field: `c00kie` and `dark` in `sid=c00kie; theme=dark`.
    private static func cookieValues(in value: String) -> [String] {
        value.unicodeScalars.split(separator: ";").compactMap { cookie in
            cookie.firstIndex(of: "=").map { HTTPSyntax.unquoted(Substring(cookie[cookie.index(after: $0)...])) }
        }
    }

    /// The credentials inside the value of a header field other than `Cookie`: what follows an authentication scheme
    /// (`t0ken` in `Bearer t0ken`), the values of its parameters (`s1g` in `HMAC keyId="k", signature="s1g"`), and a
    /// `Basic` credential's password.
    private static func credentials(inHeaderValue value: String) -> [String] {
        let scalars = value.unicodeScalars[...]
        // A first word without `=` is a scheme; `Bearer abc==` has one too, as its word ends at the space.
        var (scheme, rest) = ("", scalars)
        if let space = scalars.firstIndex(of: " "), !scalars[..<space].contains("=") {
            (scheme, rest) = (String(scalars[..<space]), scalars[scalars.index(after: space)...])
        }
        var credentials = [HTTPSyntax.unquoted(Substring(rest))]
        for parameter in rest.split(separator: ",") {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            credentials.append(HTTPSyntax.unquoted(Substring(parameter[parameter.index(after: equals)...])))
        }
        if sameHeaderName(scheme, "Basic"), let decoded = Data(base64Encoded: credentials[0]) {
            let userAndPassword = String(decoding: decoded, as: UTF8.self).unicodeScalars
            credentials.append(String(userAndPassword))
            if let colon = userAndPassword.firstIndex(of: ":") {
                credentials.append(String(userAndPassword[userAndPassword.index(after: colon)...]))
            }
        }
        return credentials
    }

    /// `url` with its userinfo, credential query values and `secrets` replaced by ``mark``, or `nil` if the result
    /// is no URL.
    public static func redacted(_ url: URL, removing secrets: [String] = []) -> URL? {
        let text = url.absoluteString
        let scrubbed = scrub(text, removing: secrets)
        return scrubbed == text ? url : URL(string: scrubbed)
    }

    /// `text` with every credential in it replaced by ``mark``: the userinfo of URLs, credential query or fragment
    /// values, `Bearer`, `Basic`, `Token` and `DPoP` tokens, the values of JSON fields with credential names, and
    /// `secrets`.
    public static func scrub(_ text: String, removing secrets: [String] = []) -> String {
        var bytes = Array(text.utf8)
        let names = names.value
        bytes = redactingUserinfo(bytes)
        bytes = redactingAssignments(bytes, names: names)
        bytes = redactingAuthorizationSchemes(bytes)
        bytes = redactingJSONFields(bytes, names: names)
        bytes = removing(secrets, from: bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `error` without credentials in any of its textual forms.
    ///
    /// A `URLError` keeps its code, with its URLs and messages redacted and its underlying error sanitized in turn.
    /// Another error whose description, reflection or `dump` shows a credential becomes a ``RedactedError`` that
    /// keeps the redacted description; an error that shows none is returned as it is.
    public static func sanitized(_ error: any Error, removing secrets: [String]) -> any Error {
        if let error = error as? URLError {
            return URLError(error.code, userInfo: sanitized(error.userInfo, removing: secrets))
        }
        var dumped = ""
        dump(error, to: &dumped)
        for text in [String(describing: error), String(reflecting: error), dumped]
        where scrub(text, removing: secrets)
            != text
        {
            return RedactedError(description: scrub(String(describing: error), removing: secrets))
        }
        return error
    }

    /// The entries of an error's `userInfo` that can be shown safely: URLs and texts redacted, errors sanitized,
    /// numbers kept, anything else dropped.
    private static func sanitized(_ userInfo: [String: Any], removing secrets: [String]) -> [String: Any] {
        userInfo.compactMapValues { value -> Any? in
            switch value {
            case let url as URL: redacted(url, removing: secrets)
            case let text as String: scrub(text, removing: secrets)
            case let number as Int: number
            case let error as any Error: sanitized(error, removing: secrets)
            default: nil
            }
        }
    }
}

/// An error whose own description would have revealed a credential, kept as that description with the credential
/// redacted.
public struct RedactedError: Error, CustomStringConvertible, LocalizedError {
    /// The original error's description, redacted.
    public var description: String

    /// The description.
    public var errorDescription: String? { description }
}

// MARK: - Scanning

extension Redaction {
    private static let markBytes = Array(mark.utf8)

    /// Whether `byte` ends a URL, a query value or a token in running text.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\""),
            UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ","), UInt8(ascii: ")"),
            UInt8(ascii: "]"), UInt8(ascii: "}"):
            true
        default: false
        }
    }

    /// Whether `byte` ends a URL's authority: `/`, `?` or `#`.
    private static func isPathStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// Whether `byte` starts a query or fragment parameter: `?`, `&`, `;` or `#`.
    private static func isParameterStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "?") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "#")
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "%"):
            true
        default: false
        }
    }

    /// Copies `bytes`, replacing the runs `match` finds: called at each index outside a replaced run, it returns
    /// where the run ends and the bytes to write for it, or `nil` to copy the byte at that index.
    private static func replacingRuns(
        in bytes: [UInt8],
        _ match: (Int) -> (end: Int, replacement: [UInt8])?
    ) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if let run = match(index), run.end > index {
                output += run.replacement
                index = run.end
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    /// `bytes` with every occurrence of the UTF-8 bytes of `secrets` replaced by ``mark``, the longest first where
    /// several start: for bodies that aren't text.
    public static func removing(_ secrets: [String], from bytes: Data) -> Data {
        Data(removing(secrets, from: Array(bytes)))
    }

    /// Replaces every occurrence of the UTF-8 bytes of `secrets` with ``mark``, the longest first where several start.
    ///
    /// On bytes, not `Character`s: `"tok\u{301}".contains("tok")` is false, as the mark joins the `k`'s `Character`.
    private static func removing(_ secrets: [String], from bytes: [UInt8]) -> [UInt8] {
        let secrets = secrets.map { Array($0.utf8) }.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        guard !secrets.isEmpty else { return bytes }
        return replacingRuns(in: bytes) { index in
            for secret in secrets where secret[0] == bytes[index] && index + secret.count <= bytes.count {
                if bytes[index..<index + secret.count].elementsEqual(secret) {
                    return (index + secret.count, markBytes)
                }
            }
            return nil
        }
    }

    /// Replaces the userinfo of every `scheme://user:password@host` with ``mark``.
    private static func redactingUserinfo(_ bytes: [UInt8]) -> [UInt8] {
        replacingRuns(in: bytes) { index in
            guard bytes[index] == UInt8(ascii: ":"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"),
                bytes[index + 2] == UInt8(ascii: "/")
            else { return nil }
            let start = index + 3
            var end = start
            var lastAt: Int?
            while end < bytes.count, !isDelimiter(bytes[end]), !isPathStart(bytes[end]) {
                if bytes[end] == UInt8(ascii: "@") { lastAt = end }
                end += 1
            }
            let host = lastAt.map { markBytes + bytes[$0..<end] } ?? Array(bytes[start..<end])
            return (end, Array(bytes[index..<start]) + host)
        }
    }

    /// Replaces the value of every `name=value` whose name is a credential's and which follows `?`, `&`, `;`, `#`,
    /// the start of a word or the start of the text, such as `?access_token=…` or a form body `password=…`.
    private static func redactingAssignments(_ bytes: [UInt8], names: Names) -> [UInt8] {
        replacingRuns(in: bytes) { index in
            let inURL = isParameterStart(bytes[index])
            // The name starts after the byte that starts it, or at the text's first byte.
            let nameStart = index == 0 && isNameByte(bytes[index]) ? index : index + 1
            guard inURL || isDelimiter(bytes[index]) || nameStart == index else { return nil }
            var end = nameStart
            while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
            guard end > nameStart, end < bytes.count, bytes[end] == UInt8(ascii: "=") else { return nil }
            let name = String(decoding: bytes[nameStart..<end], as: UTF8.self)
            // An OAuth `code` is a credential in a URL; elsewhere `Code=` is an error's code.
            guard isCredentialName(name, in: names) || (inURL && name.lowercased() == "code") else { return nil }
            var valueEnd = end + 1
            while valueEnd < bytes.count, !isDelimiter(bytes[valueEnd]),
                !isParameterStart(bytes[valueEnd]) || bytes[valueEnd] == UInt8(ascii: "?")
            {
                valueEnd += 1
            }
            return (valueEnd, Array(bytes[index...end]) + (valueEnd > end + 1 ? markBytes : []))
        }
    }

    /// Replaces the token after `Bearer`, `Basic`, `Token` or `DPoP`, in any letter case.
    private static func redactingAuthorizationSchemes(_ bytes: [UInt8]) -> [UInt8] {
        let schemes = ["bearer ", "basic ", "token ", "dpop "].map { Array($0.utf8) }
        return replacingRuns(in: bytes) { index in
            guard index == 0 || !isNameByte(bytes[index - 1]) else { return nil }
            for scheme in schemes where index + scheme.count < bytes.count {
                guard bytes[index..<index + scheme.count].elementsEqual(scheme, by: { $0 | 0x20 == $1 }) else {
                    continue
                }
                var end = index + scheme.count
                while end < bytes.count, bytes[end] == UInt8(ascii: " ") { end += 1 }
                var tokenEnd = end
                while tokenEnd < bytes.count, !isDelimiter(bytes[tokenEnd]) { tokenEnd += 1 }
                guard tokenEnd > end else { continue }
                return (tokenEnd, Array(bytes[index..<end]) + markBytes)
            }
            return nil
        }
    }

    /// Replaces the value of every JSON field with a credential's name, such as `"access_token": "…"`: a string's
    /// text, or, for a field that holds nothing but credentials (``isCredentialFieldName(_:in:)``), a number or array
    /// as a whole, which becomes the string `"REDACTED"`.
    private static func redactingJSONFields(_ bytes: [UInt8], names: Names) -> [UInt8] {
        replacingRuns(in: bytes) { index in
            // A quoted name, then `:` and a value.
            guard bytes[index] == UInt8(ascii: "\"") else { return nil }
            var nameEnd = index + 1
            while nameEnd < bytes.count, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            var colon = nameEnd + 1
            while colon < bytes.count, bytes[colon] == UInt8(ascii: " ") { colon += 1 }
            var value = colon + 1
            while value < bytes.count, bytes[value] == UInt8(ascii: " ") { value += 1 }
            guard nameEnd > index + 1, nameEnd < bytes.count, bytes[nameEnd] == UInt8(ascii: "\""),
                colon < bytes.count, bytes[colon] == UInt8(ascii: ":"), value < bytes.count
            else { return nil }
            let name = String(decoding: bytes[(index + 1)..<nameEnd], as: UTF8.self)
            if bytes[value] == UInt8(ascii: "\""), isCredentialName(name, in: names) {
                var valueEnd = value + 1
                while valueEnd < bytes.count, bytes[valueEnd] != UInt8(ascii: "\"") {
                    valueEnd += bytes[valueEnd] == UInt8(ascii: "\\") ? 2 : 1
                }
                return (min(valueEnd, bytes.count), Array(bytes[index...value]) + markBytes)
            }
            let startsArrayOrNumber =
                bytes[value] == UInt8(ascii: "[") || bytes[value] == UInt8(ascii: "-")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[value])
            guard startsArrayOrNumber, isCredentialFieldName(name, in: names) else { return nil }
            let quotedMark = [UInt8(ascii: "\"")] + markBytes + [UInt8(ascii: "\"")]
            return (endOfJSONValue(in: bytes, from: value), Array(bytes[index..<value]) + quotedMark)
        }
    }

    /// Where the JSON number or array at `start` ends: at the delimiter after a number, after an array's closing
    /// bracket (strings and nested arrays inside it skipped), or at the text's end.
    private static func endOfJSONValue(in bytes: [UInt8], from start: Int) -> Int {
        var depth = 0
        var inString = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]"), depth > 0 {
                depth -= 1
                if depth == 0 { return index + 1 }
            } else if depth == 0, isDelimiter(byte) {
                return index
            }
            index += 1
        }
        return bytes.count
    }
}

/// A setting of the whole process, such as `WebserviceError.describesBodies`, behind a `Mutex`.
public final class ProcessWide<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    /// A setting of `initial`.
    public init(_ initial: Value) {
        storage = Mutex(initial)
    }

    /// The setting.
    public var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
