import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

/// A transport's trust policies by host: exact keys, one-label wildcards, the policy of every other host, and keys
/// that are no host, compared on ASCII bytes.
@Suite struct TrustHostsTests {
    /// Policies named by strings, so a test reads which one a host gets.
    private static func hosts(_ keys: [String: String], fallback: String = "other") throws -> TrustHosts<String> {
        try TrustHosts(fallback: fallback, hosts: keys)
    }

    @Test(arguments: [
        ("api.example.com", "exact"), ("API.Example.COM", "exact"), ("api.example.com.", "exact"),
        ("cdn.example.com", "wildcard"), ("CDN.EXAMPLE.COM.", "wildcard"), ("a.b.example.com", "other"),
        ("example.com", "other"), (".example.com", "other"), ("example.com.evil.net", "other"),
        ("api.example.co", "other"), ("127.0.0.1", "loopback"), ("[::1]", "v6"), ("::1", "v6"), ("[::1].", "v6"),
        ("[::ffff:127.0.0.1]", "mapped"), ("::FFFF:127.0.0.1", "mapped"),
        ("äpi.example.com", "other"), ("xn--pi-wia.example.com", "wildcard"), ("", "other"),
    ])
    func hostGetsItsExactKeyThenItsWildcardThenTheFallback(host: String, expected: String) throws {
        let hosts = try Self.hosts([
            "api.example.com": "exact", "*.example.com": "wildcard", "127.0.0.1": "loopback", "[::1]": "v6",
            "::ffff:127.0.0.1": "mapped",
        ])
        #expect(hosts.policy(forHost: host) == expected)
    }

    @Test func keysAreReadWithoutLetterCaseOrATrailingDot() throws {
        let hosts = try Self.hosts(["API.Example.com.": "exact", "*.CDN.example.com": "wildcard"])
        #expect(hosts.policy(forHost: "api.example.com") == "exact")
        #expect(hosts.policy(forHost: "img.cdn.example.com") == "wildcard")
    }

    /// An IPv4 address in every spelling a resolver accepts (`inet_aton`'s: hexadecimal, octal, short and integer
    /// forms) is that address: its exact key's, never a wildcard's.
    @Test(arguments: [
        "127.0.0.1", "0x7f.0.0.1", "0X7F.0.0.1", "0177.0.0.1", "127.1", "127.0.1", "0x7f.1", "2130706433",
        "0x7f000001", "017700000001", "127.0.0.1.", "0x7f.0x0.0x0.0x1", "127.00.0.01",
    ])
    func anIPv4AddressInAnySpellingIsThatAddress(host: String) throws {
        #expect(try Self.hosts(["127.0.0.1": "loopback"]).policy(forHost: host) == "loopback")
        #expect(try Self.hosts(["0x7f.1": "loopback"]).policy(forHost: host) == "loopback")
    }

    /// A host that ends in a number but is no address (`1.2.3.256`, `a.1`) is no name either: it gets the fallback,
    /// never a wildcard's policy; and a wildcard key of such a name, which could match only addresses, is refused.
    @Test func aWildcardNeverMatchesAnIPAddress() throws {
        let hosts = try Self.hosts(["*.example.com": "wildcard", "1.2.3.4": "exact"])
        for host in [
            "0x7f.0.0.1", "1.2.3.256", "a.example.1", "a.0x1", "1.2.3.4.5", "0x100000000", "08.1.1.1", "1.0x", "0x.1",
        ] {
            #expect(hosts.policy(forHost: host) == "other", "\(host)")
        }
        for key in ["*.0.0.1", "*.0x1", "*.1", "1.2.3.256", "0x1.2.3.4.5", "a.1", "99999999999", "0x", "1.0x"] {
            let error = #expect(throws: WebserviceError.self, "\(key)") { try Self.hosts([key: "policy"]) }
            #expect(error?.unusablePolicyArgument == "hosts")
        }
        let twice = #expect(throws: WebserviceError.self) { try Self.hosts(["127.0.0.1": "a", "0x7f.1": "b"]) }
        #expect(twice?.unusablePolicyArgument == "hosts", "two spellings of one address are one key")
    }

    @Test func urlsGetTheirHostsPolicyAsAsyncHTTPClientReadsTheHost() throws {
        let hosts = try Self.hosts(["api.example.com": "exact", "::1": "v6"])
        for (url, expected) in [
            ("https://API.example.com:8443/a?b=c", "exact"), ("https://user:pw@api.example.com/", "exact"),
            ("https://[::1]:8443/", "v6"), ("https://api.example.com.evil.net/", "other"),
            ("https://evil.net/api.example.com", "other"), ("https://evil.net/?host=api.example.com", "other"),
        ] {
            #expect(hosts.policy(for: try #require(URL(string: url))) == expected, "\(url)")
        }
    }

    @Test(arguments: [
        "", "*", "*.", ".", "a.*.com", "*.*.com", "**.example.com", "*example.com", "ex ample.com", "äpi.example.com",
        "example..com", "example.com..", ":::..", "https://example.com", "example.com/path", "example.com:443",
        "user@example.com",
        String(repeating: "a", count: 64) + ".com", "exa\u{0}mple.com",
    ])
    func malformedKeyIsATypedErrorWhenTheHostsAreRead(key: String) {
        let error = #expect(throws: WebserviceError.self) { try Self.hosts([key: "policy"]) }
        #expect(error?.unusablePolicyArgument == "hosts")
        #expect(error?.description.contains("hosts") == true)
    }

    @Test func twoKeysForTheSameHostAreATypedError() {
        for keys in [["example.com": "a", "EXAMPLE.com.": "b"], ["*.example.com": "a", "*.Example.Com": "b"]] {
            let error = #expect(throws: WebserviceError.self) { try Self.hosts(keys) }
            #expect(error?.unusablePolicyArgument == "hosts")
        }
    }

    @Test func everyPolicyIsListedFallbackFirst() throws {
        let hosts = try Self.hosts(["a.example": "a", "*.b.example": "b"])
        #expect(hosts.policies.first == "other")
        #expect(Set(hosts.policies) == ["other", "a", "b"])
    }

    /// A careless caller's and a hostile server's URLs: each goes by its own host's policy, and only `https` reaches
    /// a host whose policy pins, whatever another host's allows.
    @Test func eachURLIsCheckedByItsOwnHostsPolicy() throws {
        let pinning = try TrustPolicy(pinnedKeys: [Data(count: 32).base64EncodedString()]).checked()
        let hosts = try TrustHosts(
            fallback: try TrustPolicy().checked(),
            hosts: [
                "api.example.com": pinning, "blocked.example.com": try TrustPolicy(trustsSystemRoots: false).checked(),
            ])
        let refused: [(String, URLError.Code)] = [
            ("http://api.example.com/a", .appTransportSecurityRequiresSecureConnection),
            ("http://API.EXAMPLE.COM./a", .appTransportSecurityRequiresSecureConnection),
            ("https://blocked.example.com/a", .serverCertificateUntrusted),
            ("http://Blocked.Example.com/a", .serverCertificateUntrusted),
        ]
        for (string, code) in refused {
            let url = try #require(URL(string: string))
            let error = #expect(throws: URLError.self, "\(string)") { try hosts.policy(for: url).check(url) }
            #expect(error?.code == code, "\(string)")
        }
        for string in ["https://api.example.com/a", "http://example.com/a", "http://127.1/", "https://other.example/"] {
            let url = try #require(URL(string: string))
            #expect(throws: Never.self, "\(string)") { try hosts.policy(for: url).check(url) }
        }
    }
}
