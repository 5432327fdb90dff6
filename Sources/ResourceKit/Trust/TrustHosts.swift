import Foundation

/// A transport's trust policies by server host: the transport's `hosts` keys, exact or `*.` and a name, and the
/// policy for every other host; see <doc:Transports#Trust>.
///
/// Keys and hosts are compared as ASCII bytes, without letter case, a trailing dot or an IPv6 address's brackets; a
/// wildcard stands for exactly one label, as a certificate's does, and an exact key wins over it.
struct TrustHosts<Policy> {
    /// The policy of a host no key names.
    let fallback: Policy
    /// The policies of the exact keys, by normalized host.
    private let exact: [String: Policy]
    /// The policies of the wildcard keys, by the normalized name after `*.`.
    private let wildcards: [String: Policy]

    /// Reads `hosts`' keys.
    ///
    /// - Throws: ``WebserviceError/Reason/unusableTrustPolicy(argument:index:)`` with `"hosts"` for a key that isn't
    ///   a host name, an IP address or `*.` and a host name (empty, `*`, `a.*.com`, non-ASCII…), or two keys that
    ///   name the same host.
    init(fallback: Policy, hosts: [String: Policy]) throws(WebserviceError) {
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
    var policies: [Policy] { [fallback] + exact.values + wildcards.values }

    /// The same keys with each policy transformed.
    func map<Other>(_ transform: (Policy) throws(WebserviceError) -> Other) throws(WebserviceError)
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
    func policy(forHost host: String?) -> Policy {
        guard let host = host.flatMap(Self.normalized) else { return fallback }
        if let policy = exact[host] { return policy }
        // One label, not empty, then the wildcard's name; never for an IP address.
        guard !Self.isIPv4(host), !Self.isIPv6(host), let dot = host.utf8.firstIndex(of: UInt8(ascii: ".")),
            dot != host.utf8.startIndex
        else { return fallback }
        return wildcards[String(host[host.utf8.index(after: dot)...])] ?? fallback
    }

    /// The policy for the server of `url`, whose host is read as AsyncHTTPClient reads it.
    func policy(for url: URL) -> Policy {
        policy(forHost: URL(string: url.absoluteString)?.host ?? url.host)
    }

    /// `host` in ASCII lowercase, without a trailing dot or the brackets of an IPv6 address; `nil` when it isn't ASCII
    /// or is empty.
    static func normalized(_ host: String) -> String? {
        var bytes = Array(host.utf8)
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        if bytes.count >= 2, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") {
            bytes = Array(bytes.dropFirst().dropLast())
        }
        guard !bytes.isEmpty else { return nil }
        return String(decoding: bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
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

    /// Whether `host` is four dotted decimal numbers, an IPv4 address's form.
    private static func isIPv4(_ host: String) -> Bool {
        let parts = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { (0x30...0x39).contains($0) } }
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

extension TrustHosts where Policy == CheckedTrust {
    /// The strictest minimum TLS version of the policies: a `URLSession`'s, which has one for every host.
    var strictestTLSVersion: TrustPolicy.TLSVersion? {
        let versions = policies.compactMap(\.minimumTLSVersion)
        return versions.contains(.v1_3) ? .v1_3 : versions.first
    }
}
