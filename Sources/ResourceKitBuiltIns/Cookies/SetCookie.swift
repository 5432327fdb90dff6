import Foundation

/// A `Set-Cookie` field's cookie as RFC 6265 §5.2 reads it, before the jar decides for which URL it keeps it.
struct SetCookie: Equatable {
    var name: String
    var value: String
    /// The `Domain` attribute, lowercased and without its leading dot; `nil` without one or with an empty one.
    var domain: String?
    /// The `Path` attribute when it begins with `/`; `nil` otherwise, for the default path.
    var path: String?
    var isSecure = false
    /// When the cookie expires: from `Max-Age` if it has one, from `Expires` otherwise; `nil` for a session cookie.
    var expires: Date?

    /// The longest an attribute's value may be (RFC 6265bis §5.6): a longer one is ignored.
    static let maxAttributeLength = 1024

    /// Reads `field`, a `Set-Cookie` value, at `now`; `nil` for one a user agent ignores: no `=` before the first `;`,
    /// an empty name, or a control character (a line break above all) in the name or the value.
    init?(_ field: String, now: Date) {
        let parts = field.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let name = Self.trimmed(pair[..<equals])
        let value = Self.trimmed(pair[pair.index(after: equals)...])
        guard !name.isEmpty, !name.contains(where: Self.isControl), !value.contains(where: Self.isControl) else {
            return nil
        }
        self.name = String(decoding: name, as: UTF8.self)
        self.value = String(decoding: value, as: UTF8.self)
        var maxAge: Date?
        for attribute in parts.dropFirst() {
            let equals = attribute.firstIndex(of: UInt8(ascii: "=")) ?? attribute.endIndex
            let key = String(decoding: Self.trimmed(attribute[..<equals]), as: UTF8.self).lowercased()
            let raw = equals == attribute.endIndex ? attribute[equals...] : attribute[attribute.index(after: equals)...]
            let value = Self.trimmed(raw)
            guard value.count <= Self.maxAttributeLength else { continue }
            switch key {
            case "expires": expires = Self.cookieDate(value) ?? expires
            case "max-age": maxAge = Self.maxAge(value, now: now) ?? maxAge
            case "domain":
                let domain = value.first == UInt8(ascii: ".") ? value.dropFirst() : value
                self.domain = domain.isEmpty ? nil : String(decoding: domain, as: UTF8.self).lowercased()
            case "path":
                path = value.first == UInt8(ascii: "/") ? String(decoding: value, as: UTF8.self) : nil
            case "secure": isSecure = true
            default: break  // `HttpOnly`, `SameSite` and extensions: nothing a client without scripts does with them.
            }
        }
        if let maxAge { expires = maxAge }
    }

    /// The date `Max-Age` sets (§5.2.2): `now` plus its seconds, the distant past for zero or less, the distant future
    /// for more than any date holds; `nil` for a value that isn't an optional `-` and digits.
    static func maxAge(_ value: Substring.UTF8View, now: Date) -> Date? {
        let digits = value.first == UInt8(ascii: "-") ? value.dropFirst() : value[...]
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        if value.first == UInt8(ascii: "-") { return .distantPast }
        // A number too long for an Int is past any date: no need to read it. Leading zeros don't count.
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 12 else { return .distantFuture }
        let seconds = significant.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return seconds <= 0 ? .distantPast : min(now + TimeInterval(seconds), .distantFuture)
    }

    /// The date of an `Expires` value by RFC 6265 §5.1.1's algorithm, which reads the dates servers send, `Wed,
    /// 21 Oct 2026 07:28:00 GMT` and its older forms alike; `nil` for one it can't read.
    static func cookieDate(_ value: Substring.UTF8View) -> Date? {
        let isDelimiter = { (byte: UInt8) in
            byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
                || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
        }
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in value.split(whereSeparator: isDelimiter) {
            if time == nil, let found = Self.time(token) {
                time = found
            } else if day == nil, let found = Self.number(token, digits: 1...2) {
                day = found
            } else if month == nil, let found = Self.month(token) {
                month = found
            } else if year == nil, let found = Self.number(token, digits: 2...4) {
                year = found
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        let days = Self.daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// The leading digits of `token`, when there are as many as `digits` allows, followed by anything but a digit.
    private static func number(_ token: Substring.UTF8View, digits: ClosedRange<Int>) -> Int? {
        let leading = token.prefix { (0x30...0x39).contains($0) }
        guard digits.contains(leading.count) else { return nil }
        return leading.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `hh:mm:ss`, each one or two digits, the seconds followed by anything but a digit.
    private static func time(_ token: Substring.UTF8View) -> (Int, Int, Int)? {
        let parts = token.split(separator: UInt8(ascii: ":"), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count <= 2, parts[1].count <= 2,
            let hour = number(parts[0], digits: max(parts[0].count, 1)...2),
            let minute = number(parts[1], digits: max(parts[1].count, 1)...2),
            let second = number(parts[2], digits: 1...2)
        else { return nil }
        return (hour, minute, second)
    }

    /// The month whose English name's first three letters begin `token`, in any letter case: 1 to 12.
    private static func month(_ token: Substring.UTF8View) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    /// Days from 1 January 1970 to the date, in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    ///
    /// A day past its month's end rolls over, as a date's arithmetic would (`31 Feb` is `3 Mar`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = year / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `bytes` without spaces and tabs around them.
    private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }

    /// A control character other than a tab: one a header field must not carry.
    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }
}
