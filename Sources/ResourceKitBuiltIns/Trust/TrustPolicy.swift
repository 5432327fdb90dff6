import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// Which servers a transport trusts (the system's certificate authorities, yours, or only yours), which keys it insists
/// on, the oldest TLS version it accepts and the certificate it presents: a value you pass to a transport's
/// initializer; see <doc:Transports#Trust>.
///
/// ```swift
/// let policy = TrustPolicy(pinnedKeys: ["current+key+pin=", "backup+key+pin="])
/// let webservice = Webservice(transport: try AsyncHTTPClientTransport(trust: policy))
/// ```
public struct TrustPolicy: Sendable, CustomReflectable {
    /// Certificates of authorities to trust, besides the system's unless ``trustsSystemRoots`` is false.
    let additionalRoots: [Data]
    /// Base64 SHA-256 digests of public keys, one of which a certificate of the server's chain must have.
    let pinnedKeys: [String]
    /// The certificate and key presented to a server that asks for one.
    let clientIdentity: ClientIdentity?
    /// Whether the system's certificate authorities are trusted; without them only `additionalRoots` are.
    let trustsSystemRoots: Bool
    /// The oldest TLS version accepted, or `nil` for the transport's default.
    let minimumTLSVersion: TLSVersion?

    /// Creates a policy; by default it trusts the system's authorities only, pins nothing and presents nothing.
    ///
    /// ```swift
    /// let mutual = TrustPolicy(additionalRoots: [caPEM], clientIdentity: p12, identityPassword: password)
    /// ```
    ///
    /// Its description, debug description and dump show the number of roots, the pins and the identity's size, never
    /// the password or the key.
    ///
    /// - Parameters:
    ///   - additionalRoots: Certificates of authorities to trust, such as a private CA, each PEM (one or more
    ///     certificates) or DER.
    ///   - trustsSystemRoots: Whether the system's authorities are trusted too; with `false`, only `additionalRoots`
    ///     are, and a policy with none trusts no server.
    ///   - pinnedKeys: Base64 SHA-256 digests of public keys (SubjectPublicKeyInfo), one of which a certificate of the
    ///     server's verified chain must have: with `AsyncHTTPClientTransport`, the leaf or one of `additionalRoots`.
    ///     List a backup key's too, so the server can rotate to it.
    ///   - minimumTLSVersion: The oldest TLS version a connection may use; `nil` leaves the transport's default.
    ///   - clientIdentity: A certificate and its private key presented to a server that asks for one (mutual TLS):
    ///     a PKCS#12 archive (`.p12`) with its chain, or PEM with one or more `CERTIFICATE` blocks and one private key.
    ///   - identityPassword: The password that opens `clientIdentity`, or its encrypted PEM key.
    public init(
        additionalRoots: [Data] = [], trustsSystemRoots: Bool = true, pinnedKeys: [String] = [],
        minimumTLSVersion: TLSVersion? = nil, clientIdentity: Data? = nil, identityPassword: String = ""
    ) {
        self.additionalRoots = additionalRoots
        self.trustsSystemRoots = trustsSystemRoots
        self.pinnedKeys = pinnedKeys
        self.minimumTLSVersion = minimumTLSVersion
        self.clientIdentity = clientIdentity.map { ClientIdentity(bytes: $0, password: identityPassword) }
    }

    /// A TLS version a ``TrustPolicy`` may require at least; see <doc:Transports#Trust>.
    public enum TLSVersion: Sendable, Hashable {
        /// TLS 1.2 (RFC 5246).
        case v1_2
        /// TLS 1.3 (RFC 8446).
        case v1_3
    }

    /// The number of roots, the pins and the identity archive's size, never its password: what `print`, `dump` and
    /// string interpolation show.
    public var customMirror: Mirror {
        let identity = clientIdentity.map { "\($0.bytes.count) bytes, password: <redacted>" } ?? "nil"
        let version = minimumTLSVersion.map { "\($0)" } ?? "nil"
        return Mirror(
            self,
            children: [
                "additionalRoots": additionalRoots.count, "trustsSystemRoots": trustsSystemRoots,
                "pinnedKeys": pinnedKeys, "minimumTLSVersion": version, "clientIdentity": identity,
            ],
            displayStyle: .struct)
    }

    /// A client certificate and its private key, as a PKCS#12 archive (`.p12`) or PEM, and the password that opens
    /// it.
    public struct ClientIdentity: Sendable, Hashable {
        /// The archive's or the PEM's bytes: the certificate, its chain and its private key.
        public var bytes: Data
        /// The password that opens the archive or the encrypted PEM key.
        public var password: String

        /// Whether the identity is PEM rather than PKCS#12 (which is DER, so never begins a PEM block).
        public var isPEM: Bool { bytes.range(of: Data("-----BEGIN".utf8)) != nil }

        /// The DER certificates and the PEM private key block of a PEM identity, or `nil` when it has no certificate or
        /// not exactly one private key.
        public var pem: (certificates: [Data], key: Data)? {
            let certificates = TrustPolicy.derCertificates(in: bytes)
            guard isPEM, !certificates.isEmpty else { return nil }
            let keys = TrustPolicy.pemBlocks(in: bytes).filter { $0.label.hasSuffix("PRIVATE KEY") }
            guard keys.count == 1, let key = keys.first else { return nil }
            return (certificates, key.block)
        }
    }

    /// Whether the policy asks for nothing beyond the system's trust.
    var isDefault: Bool {
        additionalRoots.isEmpty && pinnedKeys.isEmpty && clientIdentity == nil && trustsSystemRoots
            && minimumTLSVersion == nil
    }

    /// The policy in the form a transport applies it: the roots as DER certificates, the pins as digests.
    ///
    /// - Throws: ``WebserviceError/Reason/unusableTrustPolicy(argument:index:)`` for a pin that isn't the base64 of
    ///   32 bytes, or a root that isn't a certificate.
    public func checked() throws(WebserviceError) -> CheckedTrust {
        var roots: [[Data]] = []
        for (index, root) in additionalRoots.enumerated() {
            let certificates = Self.derCertificates(in: root)
            guard !certificates.isEmpty, certificates.allSatisfy({ subjectPublicKeyInfo(ofCertificate: $0) != nil })
            else { throw WebserviceError.unreadableRoot(index: index) }
            roots.append(certificates)
        }
        var pins: Set<Data> = []
        for (index, pin) in pinnedKeys.enumerated() {
            guard let digest = Self.digest(ofPin: pin) else { throw WebserviceError.malformedPin(index: index) }
            pins.insert(digest)
        }
        if let clientIdentity, clientIdentity.isPEM, clientIdentity.pem == nil {
            throw WebserviceError.unreadableIdentity
        }
        return CheckedTrust(
            roots: roots, pins: pins, identity: clientIdentity, trustsSystemRoots: trustsSystemRoots,
            minimumTLSVersion: minimumTLSVersion)
    }

    /// The 32 bytes `pin` is the base64 of, ignoring spaces and line breaks around it; `nil` for anything else.
    static func digest(ofPin pin: String) -> Data? {
        let blanks: Set<Unicode.Scalar> = [" ", "\t", "\r", "\n"]
        let scalars = pin.unicodeScalars.drop { blanks.contains($0) }.reversed().drop { blanks.contains($0) }
        let trimmed = String(String.UnicodeScalarView(scalars.reversed()))
        guard let digest = Data(base64Encoded: trimmed), digest.count == 32 else { return nil }
        return digest
    }

    /// The DER certificates in `root`: those of its `CERTIFICATE` blocks when it is PEM, otherwise `root` itself.
    static func derCertificates(in root: Data) -> [Data] {
        let begin = Data("-----BEGIN CERTIFICATE-----".utf8)
        let end = Data("-----END CERTIFICATE-----".utf8)
        guard root.range(of: Data("-----BEGIN".utf8)) != nil else { return [root] }
        var certificates: [Data] = []
        var rest = root[...]
        while let start = rest.range(of: begin), let stop = rest.range(of: end, in: start.upperBound..<rest.endIndex) {
            let base64 = rest[start.upperBound..<stop.lowerBound]
            guard let der = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else { return [] }
            certificates.append(der)
            rest = rest[stop.upperBound...]
        }
        return certificates
    }

    /// The PEM blocks of `pem` in order: each one's label (`CERTIFICATE`, `PRIVATE KEY`, …) and its bytes from
    /// `-----BEGIN` to the end of its `-----END` line; a block without its end is left out.
    static func pemBlocks(in pem: Data) -> [(label: String, block: Data)] {
        let (begin, end, dashes) = (Data("-----BEGIN ".utf8), Data("-----END ".utf8), Data("-----".utf8))
        var blocks: [(label: String, block: Data)] = []
        var rest = pem[...]
        while let start = rest.range(of: begin),
            let labelEnd = rest.range(of: dashes, in: start.upperBound..<rest.endIndex),
            let stop = rest.range(of: end, in: labelEnd.upperBound..<rest.endIndex),
            let stopEnd = rest.range(of: dashes, in: stop.upperBound..<rest.endIndex)
        {
            let label = String(decoding: rest[start.upperBound..<labelEnd.lowerBound], as: UTF8.self)
            // Only a block whose end names the same label.
            if rest[stop.upperBound..<stopEnd.lowerBound].elementsEqual(label.utf8) {
                blocks.append((label, Data(rest[start.lowerBound..<stopEnd.upperBound]) + Data("\n".utf8)))
            }
            rest = rest[stopEnd.upperBound...]
        }
        return blocks
    }
}

/// A ``TrustPolicy`` checked and decoded, as a transport applies it.
public struct CheckedTrust: Sendable, Hashable {
    /// The DER certificates of each of the policy's additional roots.
    public let roots: [[Data]]
    /// The pinned SHA-256 digests of SubjectPublicKeyInfos; empty when nothing is pinned.
    public let pins: Set<Data>
    /// The client identity, still to be opened by the transport's TLS library.
    public let identity: TrustPolicy.ClientIdentity?
    /// Whether the system's authorities are trusted besides ``roots``.
    public let trustsSystemRoots: Bool
    /// The oldest TLS version accepted, or `nil` for the transport's default.
    public let minimumTLSVersion: TrustPolicy.TLSVersion?

    /// Whether the policy trusts no server at all: neither the system's authorities nor a root of its own.
    public var trustsNothing: Bool { !trustsSystemRoots && roots.isEmpty }

    /// The DER certificates of ``roots`` whose key is pinned: with AsyncHTTPClient, the only anchors when there are
    /// any, so that every verified chain ends at a pinned key.
    public var pinnedRoots: [Data] {
        pins.isEmpty ? [] : roots.joined().filter { Self.pin(of: $0).map(pins.contains) ?? false }
    }

    /// Whether the DER certificate `leaf` has a pinned key; always true when nothing is pinned.
    public func pins(_ leaf: some ContiguousBytes) -> Bool {
        pins(chain: [leaf])
    }

    /// Whether a certificate of `chain`, a verified chain of DER certificates, has a pinned key; always true when
    /// nothing is pinned.
    public func pins(chain: [some ContiguousBytes]) -> Bool {
        pins.isEmpty || chain.contains { Self.pin(of: $0).map(pins.contains) ?? false }
    }

    /// Why this policy refuses a server whose verified chain is `chain` (DER, leaf first), or `nil` when a certificate
    /// of it has a pinned key.
    public func refusal(ofChain chain: [Data]) -> URLError? {
        pins(chain: chain) ? nil : Self.unpinned(chain.first ?? Data(), url: nil)
    }

    /// The SHA-256 digest of the SubjectPublicKeyInfo of the DER certificate `certificate`, or `nil` when it isn't one.
    public static func pin(of certificate: some ContiguousBytes) -> Data? {
        certificate.withUnsafeBytes { bytes in
            subjectPublicKeyInfo(ofCertificate: bytes).map { Data(sha256(UnsafeRawBufferPointer(rebasing: bytes[$0]))) }
        }
    }

    /// The error for a server whose certificate `leaf` has no pinned key: `URLError(.serverCertificateHasUnknownRoot)`,
    /// naming the pin the server's key has.
    public static func unpinned(_ leaf: some ContiguousBytes, url: URL?) -> URLError {
        let key = pin(of: leaf).map { "its key is \($0.base64EncodedString())" } ?? "its certificate can't be read"
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: "The server's certificate has none of the pinned keys (\(key))."
        ]
        userInfo[NSURLErrorFailingURLErrorKey] = url
        return URLError(.serverCertificateHasUnknownRoot, userInfo: userInfo)
    }

    /// Whether the policy is the default one: the system's authorities, and nothing else.
    public var isDefault: Bool {
        trustsSystemRoots && roots.isEmpty && pins.isEmpty && identity == nil && minimumTLSVersion == nil
    }

    /// Throws the `URLError` that refuses `url`, unsent, when this policy is its host's: a policy that trusts nothing
    /// refuses every URL, and any policy but the default an `http` URL, which has no certificate to check.
    public func check(_ url: URL) throws(URLError) {
        if trustsNothing {
            throw URLError(
                .serverCertificateUntrusted,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "No trust policy of the transport trusts this host: it was refused before connecting.",
                    NSURLErrorFailingURLErrorKey: url,
                ])
        }
        if !isDefault, url.scheme?.lowercased() != "https" { throw Self.cleartext(url) }
    }

    /// The error for an `http` URL whose host's policy isn't the default: a plain connection has no certificate, key
    /// or TLS version to check, and would send the request in clear.
    public static func cleartext(_ url: URL) -> URLError {
        URLError(
            .appTransportSecurityRequiresSecureConnection,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "This host's trust policy requires https: an http URL was refused before connecting.",
                NSURLErrorFailingURLErrorKey: url,
            ])
    }
}

extension WebserviceError {
    // Why a transport can't apply a ``TrustPolicy``, as ``Reason/unusableTrustPolicy(argument:index:)`` says it; the
    // description never shows the identity's password.

    /// The pinned key at `index` isn't the base64 of a 32-byte SHA-256 digest.
    public static func malformedPin(index: Int) -> Self {
        Self(.unusableTrustPolicy(argument: "pinnedKeys", index: index))
    }

    /// The additional root at `index` isn't a PEM or DER certificate.
    public static func unreadableRoot(index: Int) -> Self {
        Self(.unusableTrustPolicy(argument: "additionalRoots", index: index))
    }

    /// The client identity isn't a PKCS#12 archive or PEM with a certificate and a key, or its password is wrong.
    public static let unreadableIdentity = Self(.unusableTrustPolicy(argument: "clientIdentity", index: nil))

    /// A key of a transport's `hosts` isn't a host name, an IP address or `*.` and a host name.
    public static let malformedHost = Self(.unusableTrustPolicy(argument: "hosts", index: nil))

    /// The transport can't enforce the policy: `URLSession` on Linux doesn't let ResourceKit check certificates.
    public static let trustUnsupportedByTransport = Self(.unusableTrustPolicy(argument: nil, index: nil))
}

extension TrustPolicy.ClientIdentity: CustomReflectable {
    /// The identity's size, never its bytes or its password: what `print`, `dump` and string interpolation show.
    public var customMirror: Mirror {
        Mirror(self, children: ["bytes": bytes.count, "password": "<redacted>"], displayStyle: .struct)
    }
}
