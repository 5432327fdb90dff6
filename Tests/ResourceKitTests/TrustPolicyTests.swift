import Foundation
import Testing

@testable import ResourceKit

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
            #expect(error?.description.contains("AsyncHTTPClientTransport(trust:)") == true)
        #else
            _ = try URLSessionTransport(trust: pinned)
        #endif
    }
}
