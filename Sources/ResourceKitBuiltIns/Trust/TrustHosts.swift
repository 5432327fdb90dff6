import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// A transport's trust policies by server host: the transport's `hosts` keys, exact or `*.` and a name, and the
/// policy for every other host; see <doc:Transports#Trust>.
///
/// Keys and hosts are compared as ASCII bytes, without letter case, a trailing dot or an IPv6 address's brackets, and
/// an IPv4 address in the dotted decimal form whichever way it is spelled (`0x7f.1` is `127.0.0.1`, as a resolver reads
/// it); a wildcard stands for exactly one label, as a certificate's does, never for an address, and an exact key wins
/// over it.
public struct TrustHosts<Policy> {
    /// The policy of a host no key names.
    public let fallback: Policy
    /// The policies of the exact keys, by normalized host.
    private let exact: [String: Policy]
    /// The policies of the wildcard keys, by the normalized name after `*.`.
    private let wildcards: [String: Policy]

    /// Reads `hosts`' keys.
    ///
    /// - Throws: ``WebserviceError/Reason/unusableTrustPolicy(argument:index:)`` with `"hosts"` for a key that isn't
    ///   a host name, an IP address or `*.` and a host name (empty, `*`, `a.*.com`, `*.0.0.1`, non-ASCII…), or two keys
    ///   that name the same host (`127.0.0.1` and `0x7f.1`).
    public init(fallback: Policy, hosts: [String: Policy]) throws(WebserviceError) {
        var exact: [String: Policy] = [:]
        var wildcards: [String: Policy] = [:]
        for (key, policy) in hosts {
            guard let host = Self.normalized(key) else { throw WebserviceError.malformedHost }
            if host.utf8.starts(with: "*.".utf8) {
                let name = String(decoding: host.utf8.dropFirst(2), as: UTF8.self)
                guard Self.isName(name), wildcards.updateValue(policy, forKey: name) == nil else {
                    throw WebserviceError.malformedHost
                }
            } else {
                guard Self.isName(host) || Self.isIPv6(host), exact.updateValue(policy, forKey: host) == nil else {
                    throw WebserviceError.malformedHost
                }
            }
        }
        self.fallback = fallback
        self.exact = exact
        self.wildcards = wildcards
    }

    private init(fallback: Policy, exact: [String: Policy], wildcards: [String: Policy]) {
        self.fallback = fallback
        self.exact = exact
        self.wildcards = wildcards
    }

    /// Every policy: the fallback first, then the keys'.
    public var policies: [Policy] { [fallback] + exact.values + wildcards.values }

    /// The same keys with each policy transformed.
    public func map<Other>(_ transform: (Policy) throws(WebserviceError) -> Other) throws(WebserviceError)
        -> TrustHosts<Other>
    {
        var exact: [String: Other] = [:]
        for (host, policy) in self.exact { exact[host] = try transform(policy) }
        var wildcards: [String: Other] = [:]
        for (name, policy) in self.wildcards { wildcards[name] = try transform(policy) }
        return TrustHosts<Other>(fallback: try transform(fallback), exact: exact, wildcards: wildcards)
    }

    /// The policy for a server at `host`, as a URL's `host` has it; the fallback for `nil` or a host no key matches
    /// (one that isn't ASCII among them: keys are, an IDN's in its `xn--` form).
    public func policy(forHost host: String?) -> Policy {
        guard let host = host.flatMap(Self.normalized) else { return fallback }
        if let policy = exact[host] { return policy }
        // One label, not empty, then the wildcard's name; never for an IP address.
        guard !Self.endsInNumber(host.utf8), !Self.isIPv6(host), let dot = host.utf8.firstIndex(of: UInt8(ascii: ".")),
            dot != host.utf8.startIndex
        else { return fallback }
        return wildcards[String(host[host.utf8.index(after: dot)...])] ?? fallback
    }

    /// The policy for the server of `url`, whose host is read as AsyncHTTPClient reads it.
    public func policy(for url: URL) -> Policy {
        policy(forHost: URL(string: url.absoluteString)?.host ?? url.host)
    }

    /// `host` in ASCII lowercase, without a trailing dot or the brackets of an IPv6 address, and an IPv4 address in
    /// dotted decimal; `nil` when it isn't ASCII, is empty, or ends in a number without being an IPv4 address.
    public static func normalized(_ host: String) -> String? {
        var bytes = Array(host.utf8)
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        // One trailing dot is the root's; a second is an empty label, which no host has.
        guard bytes.last != UInt8(ascii: ".") else { return nil }
        if bytes.count >= 2, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") {
            bytes = Array(bytes.dropFirst().dropLast())
        }
        guard !bytes.isEmpty else { return nil }
        bytes = bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        // A host that ends in a number is an address to a resolver (and to a browser), never a name; one with a colon
        // is an IPv6 address, `::ffff:127.0.0.1` too.
        if !bytes.contains(UInt8(ascii: ":")), endsInNumber(bytes) {
            guard let address = ipv4Address(bytes) else { return nil }
            return (0..<4).map { String(address >> (24 - 8 * $0) & 0xFF) }.joined(separator: ".")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the last label of `host`, in lowercase, is a number: decimal digits, or `0x` and hexadecimal ones.
    private static func endsInNumber(_ host: some BidirectionalCollection<UInt8>) -> Bool {
        let last = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).last ?? []
        guard !last.isEmpty else { return false }
        if last.starts(with: "0x".utf8) { return last.dropFirst(2).allSatisfy(\.isHexDigit) }
        return last.allSatisfy(\.isDecimalDigit)
    }

    /// The IPv4 address `host` spells in any form `inet_aton` reads: one to four numbers, each decimal, octal after a
    /// `0`, or hexadecimal after `0x`, the last filling the bytes the others leave; `nil` for anything else.
    private static func ipv4Address(_ host: [UInt8]) -> UInt32? {
        let parts = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var address: UInt64 = 0
        for (index, part) in parts.enumerated() {
            let (digits, radix): (ArraySlice<UInt8>, UInt64) =
                part.starts(with: "0x".utf8)
                ? (part.dropFirst(2), 16)
                : part.count > 1 && part.first == UInt8(ascii: "0")
                    ? (part.dropFirst(), 8)
                    : (part, 10)
            guard !digits.isEmpty else { return nil }
            var value: UInt64 = 0
            for byte in digits {
                guard let digit = byte.digitValue, UInt64(digit) < radix, value <= UInt64(UInt32.max) else {
                    return nil
                }
                value = value * radix + UInt64(digit)
            }
            let isLast = index == parts.count - 1
            let limit: UInt64 = isLast ? 1 << (8 * UInt64(5 - parts.count)) : 256
            guard value < limit else { return nil }
            address |= isLast ? value : value << (8 * UInt64(3 - index))
        }
        return UInt32(address)
    }

    /// Whether `name`, normalized, is a host name: labels of letters, digits, `-` and `_`, none empty, at most 253
    /// bytes in all.
    private static func isName(_ name: String) -> Bool {
        let labels = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return name.utf8.count <= 253
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63
                    && label.allSatisfy { byte in
                        (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-")
                            || byte == UInt8(ascii: "_")
                    }
            }
    }

    /// Whether `host` has an IPv6 address's bytes: hexadecimal digits, colons (at least two) and dots.
    private static func isIPv6(_ host: String) -> Bool {
        host.utf8.filter { $0 == UInt8(ascii: ":") }.count >= 2
            && host.utf8.allSatisfy { byte in
                (0x30...0x3A).contains(byte) || (0x61...0x66).contains(byte) || byte == UInt8(ascii: ".")
            }
    }
}

extension TrustHosts: Sendable where Policy: Sendable {}

extension UInt8 {
    /// Whether the byte is an ASCII decimal digit.
    fileprivate var isDecimalDigit: Bool { (0x30...0x39).contains(self) }
    /// Whether the byte is an ASCII hexadecimal digit in lowercase.
    fileprivate var isHexDigit: Bool { isDecimalDigit || (0x61...0x66).contains(self) }
    /// The value of an ASCII decimal or lowercase hexadecimal digit.
    fileprivate var digitValue: UInt8? { isDecimalDigit ? self - 0x30 : isHexDigit ? self - 0x61 + 10 : nil }
}

extension TrustHosts where Policy == CheckedTrust {
    /// The strictest minimum TLS version of the policies: a `URLSession`'s, which has one for every host.
    public var strictestTLSVersion: TrustPolicy.TLSVersion? {
        let versions = policies.compactMap(\.minimumTLSVersion)
        return versions.contains(.v1_3) ? .v1_3 : versions.first
    }
}
