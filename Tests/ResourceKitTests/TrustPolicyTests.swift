import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A trust policy's pins, roots and identity, checked without a network: the pin of a certificate is the SHA-256 of
/// its SubjectPublicKeyInfo as openssl prints it, hostile certificate bytes never match, and a malformed policy is a
/// typed error.
@Suite struct TrustPolicyTests {
    /// The fixtures' certificates (made with openssl once) and their pins (openssl's, `certificate-*.pin`).
    static let keyKinds = ["rsa", "ec"]

    /// A certificate fixture's DER bytes and openssl's pin for it.
    private static func certificate(_ kind: String) throws -> (der: Data, pin: String) {
        let pin = String(decoding: try fixture("certificate-\(kind).pin"), as: UTF8.self)
        return (try fixture("certificate-\(kind).der"), pin.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(arguments: keyKinds)
    func pinOfACertificateIsOpenSSLsDigestOfItsPublicKey(kind: String) throws {
        let (der, pin) = try Self.certificate(kind)
        #expect(CheckedTrust.pin(of: der)?.base64EncodedString() == pin)
    }

    @Test(arguments: keyKinds)
    func certificateMatchesWhenAnyPinIsItsKey(kind: String) throws {
        let (der, pin) = try Self.certificate(kind)
        let other = Data(repeating: 7, count: 32).base64EncodedString()
        #expect(try TrustPolicy(pinnedKeys: [other, pin]).checked().pins(der))
        #expect(try !TrustPolicy(pinnedKeys: [other]).checked().pins(der))
        #expect(try TrustPolicy().checked().pins(der), "without pins, every certificate passes")
    }

    @Test(arguments: keyKinds)
    func pemRootsAreReadAsTheirDERCertificates(kind: String) throws {
        let (der, _) = try Self.certificate(kind)
        let pem = try fixture("certificate-\(kind).pem")
        let both = pem + (try fixture("certificate-rsa.pem"))
        let checked = try TrustPolicy(additionalRoots: [pem, der, both]).checked()
        #expect(checked.roots == [[der], [der], [der, try Self.certificate("rsa").der]])
    }

    @Test(arguments: [
        "", "abc", "not base64 at all!", Data(count: 31).base64EncodedString(), Data(count: 33).base64EncodedString(),
        "JmHaysgRe22ETZR55gQZgnYn YYQzFObshv16yqujzas=", "JmHaysgRe22ETZR55gQZgnYnYYQzFObshv16yqujzas",
        "JmHaysgRe22ETZR55gQZgnYnYYQzFObshv16yqujza-_", "JmHaysgRe22ETZR55gQZgnYnYYQzFObshv16yqujzaś=",
        "sha256/JmHaysgRe22ETZR55gQZgnYnYYQzFObshv16yqujzas=",
    ])
    func malformedPinIsATypedErrorNamingItsIndex(pin: String) throws {
        let valid = Data(count: 32).base64EncodedString()
        let error = #expect(throws: WebserviceError.self) { try TrustPolicy(pinnedKeys: [valid, pin]).checked() }
        #expect(error?.unusablePolicyArgument == "pinnedKeys[1]")
        #expect(error?.description.hasPrefix("TrustPolicy.pinnedKeys[1] is not the base64") == true)
    }

    @Test func pinWithSpacesOrALineBreakAroundItIsRead() throws {
        let (der, pin) = try Self.certificate("ec")
        #expect(try TrustPolicy(pinnedKeys: [" \(pin)\n"]).checked().pins(der))
    }

    @Test(arguments: [
        Data(), Data("garbage".utf8), Data("-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n".utf8),
        Data("-----BEGIN CERTIFICATE-----\nMIIB\n".utf8), Data([0x30, 0x03, 0x02, 0x01, 0x01]),
        Data(
            "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n"
                .utf8),
    ])
    func unreadableRootIsATypedErrorNamingItsIndex(root: Data) throws {
        let good = try fixture("certificate-ec.der")
        let error = #expect(throws: WebserviceError.self) { try TrustPolicy(additionalRoots: [good, root]).checked() }
        #expect(error?.unusablePolicyArgument == "additionalRoots[1]")
    }

    @Test(arguments: keyKinds)
    func truncatedOrExtendedCertificateHasNoKey(kind: String) throws {
        let (der, _) = try Self.certificate(kind)
        for count in 0..<der.count {
            #expect(CheckedTrust.pin(of: der.prefix(count)) == nil, "the first \(count) bytes")
        }
        #expect(CheckedTrust.pin(of: der + [0]) == nil)
    }

    @Test(arguments: keyKinds)
    func everyByteChangedNeverCrashes(kind: String) throws {
        let (der, pin) = try Self.certificate(kind)
        var matches = 0
        for index in der.indices {
            var changed = der
            changed[index] ^= 0xFF
            if CheckedTrust.pin(of: changed)?.base64EncodedString() == pin { matches += 1 }
        }
        // The key is only found through the lengths before it: a change there loses it, one inside another field
        // or after the key (signature) keeps it.
        #expect(matches > 0 && matches < der.count)
    }

    @Test(
        arguments: [
            [0x30, 0x80, 0x00, 0x00],  // indefinite length
            [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF],  // a length far past the end
            [0x30, 0x88, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],  // an eight-byte length
            [0x30, 0x81, 0x03, 0x30, 0x01, 0x02],  // a long form for a short length
            [0x30, 0x82, 0x00, 0x03, 0x30, 0x01, 0x02],  // a leading zero
            [0x30, 0x03, 0x30, 0x81],  // a length cut short
            [0x31, 0x00], [0x30], [0xFF, 0xFF, 0xFF, 0xFF], [0x30, 0x02, 0x30, 0x00],
        ] as [[UInt8]])
    func malformedLengthsHaveNoKey(bytes: [UInt8]) {
        #expect(CheckedTrust.pin(of: bytes) == nil)
    }

    @Test func passwordIsInNoDescriptionDumpOrError() throws {
        let policy = TrustPolicy(
            pinnedKeys: ["pin"], clientIdentity: Data("archive".utf8), identityPassword: "hunter2-secret")
        var dumped = ""
        dump(policy, to: &dumped)
        let texts = [
            String(describing: policy), String(reflecting: policy), "\(policy)", dumped,
            String(describing: WebserviceError.unreadableIdentity),
        ]
        for text in texts {
            #expect(!text.contains("hunter2"), "\(text)")
            #expect(text.contains("redacted") || text.contains("TrustPolicy.clientIdentity"), "\(text)")
        }
        #expect(dumped.contains("7 bytes") && String(describing: policy).contains("7 bytes"))
        #expect(String(describing: policy).contains(#"["pin"]"#))
    }

    @Test(arguments: keyKinds)
    func unpinnedServerIsItsOwnCodeNamingItsKey(kind: String) throws {
        let (der, pin) = try Self.certificate(kind)
        let url = try #require(URL(string: "https://example.com/a"))
        let error = CheckedTrust.unpinned(der, url: url)
        #expect(error.code == .serverCertificateHasUnknownRoot)
        #expect(error.localizedDescription.contains(pin))
        #expect(error.failingURL == url)
    }

    /// The refusals `URLSessionTransport`'s delegate records on Apple platforms, and reports instead of `.cancelled`.
    @Test func refusedServerIsFoundByHostAndPortUntilItIsAccepted() throws {
        let refusals = TrustRefusals()
        let refusal = URLError(.serverCertificateUntrusted, userInfo: [NSLocalizedDescriptionKey: "expired"])
        refusals.record(refusal, host: "API.example.com", port: 443)
        refusals.record(URLError(.secureConnectionFailed), host: "api.example.com", port: 8443)
        let url = try #require(URL(string: "https://api.EXAMPLE.com/a?b=c"))
        let found = try #require(refusals.refusal(of: url))
        #expect(found.code == .serverCertificateUntrusted)
        #expect(found.localizedDescription == "expired")
        #expect(found.failingURL == url)
        #expect(
            refusals.refusal(of: try #require(URL(string: "https://api.example.com:8443")))?.code
                == .secureConnectionFailed)
        #expect(refusals.refusal(of: try #require(URL(string: "http://api.example.com/a"))) == nil)  // port 80
        #expect(refusals.refusal(of: try #require(URL(string: "https://example.com/a"))) == nil)

        refusals.record(nil, host: "api.example.com", port: 443)
        #expect(refusals.refusal(of: url) == nil)
        #expect(refusals.refusal(of: try #require(URL(string: "https://api.example.com:8443"))) != nil)
    }

    /// The sentence survives the description's redaction whole, though it names `pinnedKeys` and a password.
    @Test func anUnusablePolicyIsDescribedByItsWholeSentence() {
        let sentences = [
            (WebserviceError.malformedPin(index: 1), "TrustPolicy.pinnedKeys[1] is not the base64 of a 32-byte"),
            (WebserviceError.unreadableRoot(index: 2), "TrustPolicy.additionalRoots[2] is not a PEM or DER"),
            (WebserviceError.unreadableIdentity, "TrustPolicy.clientIdentity is not a PKCS#12 archive"),
            (WebserviceError.trustUnsupportedByTransport, "This transport can't enforce a TrustPolicy's"),
            (
                WebserviceError(.unusableTrustPolicy(argument: "other", index: 3)),
                "TrustPolicy's other[3] can't be used."
            ),
        ]
        for (error, start) in sentences {
            #expect(error.description.hasPrefix(start), "\(error)")
            #expect(error.description.hasSuffix(".") && !error.description.contains("REDACTED"), "\(error)")
            #expect(error.method == nil && error.url == nil && error.response == nil && error.underlyingError == nil)
        }
        #expect(WebserviceError.unreadableIdentity.unusablePolicyArgument == "clientIdentity")
    }

    /// A policy's password is in no text of the error a transport throws for it, nor of the policy.
    @Test func thePasswordIsInNoTextOfTheErrorATransportThrows() {
        let policy = TrustPolicy(clientIdentity: Data("archive".utf8), identityPassword: "hunter2-secret")
        let error = #expect(throws: WebserviceError.self) {
            // On Linux `URLSession` refuses any policy but the default; on Apple platforms the archive doesn't open.
            _ = try URLSessionTransport(trust: policy)
        }
        var dumped = ""
        dump(error, to: &dumped)
        for text in [
            error.map(String.init(describing:)), error.map(String.init(reflecting:)), error?.localizedDescription,
            dumped,
        ] {
            #expect(text?.contains("hunter2") == false, "\(text ?? "no error")")
        }
    }

    @Test func urlSessionTransportTakesTheDefaultPolicy() throws {
        _ = try URLSessionTransport(trust: TrustPolicy())
        let pinned = TrustPolicy(pinnedKeys: [Data(count: 32).base64EncodedString()])
        #if canImport(FoundationNetworking)
            let error = #expect(throws: WebserviceError.self) { try URLSessionTransport(trust: pinned) }
            #expect(error?.unusablePolicyArgument == "-")
            #expect(error?.description.contains("AsyncHTTPClientTransport(trust:hosts:)") == true)
        #else
            _ = try URLSessionTransport(trust: pinned)
        #endif
    }

    /// A PEM identity's blocks: a private key block of any kind, its certificates as DER.
    private static func pemIdentity(certificates: [String], keys: Int) throws -> Data {
        let key =
            "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n"
        let pems = try certificates.map { String(decoding: try fixture("certificate-\($0).pem"), as: UTF8.self) }
        return Data((pems.joined() + String(repeating: key, count: keys)).utf8)
    }

    @Test func pemIdentityIsItsCertificatesAndItsOneKey() throws {
        let pem = try Self.pemIdentity(certificates: ["ec", "rsa"], keys: 1)
        let identity = try #require(try TrustPolicy(clientIdentity: pem).checked().identity)
        #expect(identity.isPEM)
        let parsed = try #require(identity.pem)
        #expect(parsed.certificates == [try Self.certificate("ec").der, try Self.certificate("rsa").der])
        #expect(String(decoding: parsed.key, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----\nMIGH"))
        // The key first, as two files concatenated in either order.
        let keyFirst = try Self.pemIdentity(certificates: [], keys: 1) + (try fixture("certificate-ec.pem"))
        #expect(try TrustPolicy(clientIdentity: keyFirst).checked().identity?.pem?.certificates.count == 1)
        // A PKCS#12 archive is DER: never taken for PEM.
        #expect(try TrustPolicy(clientIdentity: Data([0x30, 0x82, 0x01, 0x00])).checked().identity?.isPEM == false)
    }

    @Test(arguments: [(["ec"], 0), ([], 1), (["ec"], 2)])
    func pemIdentityWithoutACertificateOrOneKeyIsATypedError(certificates: [String], keys: Int) throws {
        let pem = try Self.pemIdentity(certificates: certificates, keys: keys)
        let error = #expect(throws: WebserviceError.self) {
            try TrustPolicy(clientIdentity: pem, identityPassword: "hunter2-secret").checked()
        }
        #expect(error?.unusablePolicyArgument == "clientIdentity")
        #expect(error.map { !"\($0)".contains("hunter2") && !"\($0)".contains("MIGH") } == true)
    }

    @Test func pemBlockWhoseEndNamesAnotherLabelIsLeftOut() {
        let pem = Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END CERTIFICATE-----\n".utf8)
        #expect(TrustPolicy.pemBlocks(in: pem).isEmpty)
        #expect(TrustPolicy.pemBlocks(in: Data("-----BEGIN PRIVATE KEY-----\nAAAA".utf8)).isEmpty)
    }

    @Test(arguments: keyKinds)
    func aPinMatchesAnyCertificateOfAVerifiedChain(kind: String) throws {
        let (der, pin) = try Self.certificate(kind)
        let other = try Self.certificate(kind == "ec" ? "rsa" : "ec").der
        let checked = try TrustPolicy(pinnedKeys: [pin]).checked()
        #expect(checked.pins(chain: [other, der]), "the authority's key, after the leaf")
        #expect(!checked.pins(chain: [other]))
        #expect(!checked.pins(chain: [Data]()))
    }

    @Test func onlyRootsWhoseKeyIsPinnedAnchorAPinningPolicy() throws {
        let (ec, ecPin) = try Self.certificate("ec")
        let (rsa, _) = try Self.certificate("rsa")
        #expect(try TrustPolicy(additionalRoots: [rsa, ec], pinnedKeys: [ecPin]).checked().pinnedRoots == [ec])
        #expect(try TrustPolicy(additionalRoots: [rsa, ec]).checked().pinnedRoots.isEmpty)
        let leafPin = Data(count: 32).base64EncodedString()
        #expect(try TrustPolicy(additionalRoots: [rsa], pinnedKeys: [leafPin]).checked().pinnedRoots.isEmpty)
    }

    @Test func policyThatTrustsNothingRefusesEveryURLUnsent() throws {
        let url = try #require(URL(string: "https://example.com/a"))
        let nothing = try TrustPolicy(trustsSystemRoots: false).checked()
        #expect(nothing.trustsNothing)
        let error = #expect(throws: URLError.self) { try nothing.check(url) }
        #expect(error?.code == .serverCertificateUntrusted)
        #expect(error?.localizedDescription.contains("before connecting") == true)
        #expect(
            try !TrustPolicy(additionalRoots: [fixture("certificate-ec.der")], trustsSystemRoots: false).checked()
                .trustsNothing)
        try TrustPolicy().checked().check(url)
    }

    @Test func newOptionsAreInTheDescriptionWithoutTheKey() throws {
        let pem = try Self.pemIdentity(certificates: ["ec"], keys: 1)
        let policy = TrustPolicy(
            trustsSystemRoots: false, minimumTLSVersion: .v1_3, clientIdentity: pem, identityPassword: "hunter2-secret")
        var dumped = ""
        dump(policy, to: &dumped)
        for text in [String(describing: policy), dumped] {
            #expect(text.contains("trustsSystemRoots") && text.contains("false") && text.contains("v1_3"), "\(text)")
            #expect(!text.contains("hunter2") && !text.contains("MIGH") && !text.contains("BEGIN"), "\(text)")
        }
    }

    /// Linux `URLSession` can't apply any of a policy's options, for any host: it refuses each when it is made.
    @Test(arguments: [
        TrustPolicy(trustsSystemRoots: false), TrustPolicy(minimumTLSVersion: .v1_2),
        TrustPolicy(minimumTLSVersion: .v1_3),
    ])
    func urlSessionTransportRefusesEveryOptionOnLinux(policy: TrustPolicy) throws {
        let pem = try Self.pemIdentity(certificates: ["ec"], keys: 1)
        let policies = [policy, TrustPolicy(clientIdentity: pem)]
        for policy in policies {
            for (trust, hosts) in [(policy, [:]), (TrustPolicy(), ["api.example.com": policy])] {
                #if canImport(FoundationNetworking)
                    let error = #expect(throws: WebserviceError.self) {
                        try URLSessionTransport(trust: trust, hosts: hosts)
                    }
                    #expect(error?.unusablePolicyArgument == "-")
                #else
                    _ = try? URLSessionTransport(trust: trust, hosts: hosts)
                #endif
            }
        }
        // A malformed key is named first, on every platform.
        let error = #expect(throws: WebserviceError.self) {
            try URLSessionTransport(trust: policy, hosts: ["*": policy])
        }
        #expect(error?.unusablePolicyArgument == "hosts")
        _ = try URLSessionTransport(trust: TrustPolicy(), hosts: ["api.example.com": TrustPolicy()])
    }

    /// What `URLSessionTransport` sets as its session's minimum on Apple platforms, for every host.
    @Test func sessionTakesTheStrictestMinimumTLSVersionOfItsPolicies() throws {
        let policies: [[TrustPolicy.TLSVersion?]: TrustPolicy.TLSVersion?] = [
            [nil, nil]: nil, [nil, .v1_2]: .v1_2, [.v1_3, .v1_2]: .v1_3, [.v1_2, .v1_3, nil]: .v1_3,
        ]
        for (versions, strictest) in policies {
            let checked = try versions.map { try TrustPolicy(minimumTLSVersion: $0).checked() }
            var hosts: [String: CheckedTrust] = [:]
            for (index, policy) in checked.dropFirst().enumerated() { hosts["host\(index).example"] = policy }
            #expect(try TrustHosts(fallback: checked[0], hosts: hosts).strictestTLSVersion == strictest, "\(versions)")
        }
    }

    @Test(arguments: keyKinds)
    func chainWithoutAPinnedKeyIsRefusedNamingItsLeaf(kind: String) throws {
        let (der, pin) = try Self.certificate(kind)
        let other = try Self.certificate(kind == "ec" ? "rsa" : "ec")
        let checked = try TrustPolicy(pinnedKeys: [other.pin]).checked()
        #expect(checked.refusal(ofChain: [der, other.der]) == nil)
        let refusal = try #require(checked.refusal(ofChain: [der]))
        #expect(refusal.code == .serverCertificateHasUnknownRoot && refusal.localizedDescription.contains(pin))
        #expect(checked.refusal(ofChain: [])?.code == .serverCertificateHasUnknownRoot)
    }
}
