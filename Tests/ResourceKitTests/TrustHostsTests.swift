import Foundation
import Testing

@testable import ResourceKit

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
        ("äpi.example.com", "other"), ("xn--pi-wia.example.com", "wildcard"), ("", "other"),
    ])
    func hostGetsItsExactKeyThenItsWildcardThenTheFallback(host: String, expected: String) throws {
        let hosts = try Self.hosts([
            "api.example.com": "exact", "*.example.com": "wildcard", "127.0.0.1": "loopback", "[::1]": "v6",
        ])
        #expect(hosts.policy(forHost: host) == expected)
    }

    @Test func keysAreReadWithoutLetterCaseOrATrailingDot() throws {
        let hosts = try Self.hosts(["API.Example.com.": "exact", "*.CDN.example.com": "wildcard"])
        #expect(hosts.policy(forHost: "api.example.com") == "exact")
        #expect(hosts.policy(forHost: "img.cdn.example.com") == "wildcard")
    }

    @Test func aWildcardNeverMatchesAnIPAddress() throws {
        let hosts = try Self.hosts(["*.0.0.1": "wildcard"])
        #expect(hosts.policy(forHost: "127.0.0.1") == "other")
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
        "example..com", "https://example.com", "example.com/path", "example.com:443", "user@example.com",
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
