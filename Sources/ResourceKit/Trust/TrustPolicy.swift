import Foundation

/// Which servers a transport trusts besides the system's certificate authorities, which keys it insists on, and the
/// certificate it presents: a value you pass to a transport's initializer; see <doc:Transports#Trust>.
///
/// ```swift
/// let policy = TrustPolicy(pinnedKeys: ["current+key+pin=", "backup+key+pin="])
/// let webservice = Webservice(transport: try AsyncHTTPClientTransport(trust: policy))
/// ```
public struct TrustPolicy: Sendable, CustomReflectable {
    /// Certificates of authorities to trust besides the system's.
    let additionalRoots: [Data]
    /// Base64 SHA-256 digests of public keys, one of which the server's certificate must have.
    let pinnedKeys: [String]
    /// The certificate and key presented to a server that asks for one.
    let clientIdentity: ClientIdentity?

    /// Creates a policy; by default it trusts the system's authorities only, pins nothing and presents nothing.
    ///
    /// ```swift
    /// let mutual = TrustPolicy(additionalRoots: [caPEM], clientIdentity: p12, identityPassword: password)
    /// ```
    ///
    /// Its description, debug description and dump show the number of roots, the pins and the archive's size, never
    /// the password.
    ///
    /// - Parameters:
    ///   - additionalRoots: Certificates of authorities to trust besides the system's, such as a private CA, each PEM
    ///     (one or more certificates) or DER.
    ///   - pinnedKeys: Base64 SHA-256 digests of public keys (SubjectPublicKeyInfo), one of which the server's
    ///     certificate must have. List a backup key's too, so the server can rotate to it.
    ///   - clientIdentity: A PKCS#12 archive (`.p12`) with the certificate, its chain and its private key, presented
    ///     to a server that asks for one (mutual TLS).
    ///   - identityPassword: The password that opens `clientIdentity`.
    public init(
        additionalRoots: [Data] = [], pinnedKeys: [String] = [], clientIdentity: Data? = nil,
        identityPassword: String = ""
    ) {
        self.additionalRoots = additionalRoots
        self.pinnedKeys = pinnedKeys
        self.clientIdentity = clientIdentity.map { ClientIdentity(pkcs12: $0, password: identityPassword) }
    }

    /// The number of roots, the pins and the identity archive's size, never its password: what `print`, `dump` and
    /// string interpolation show.
    public var customMirror: Mirror {
        let identity = clientIdentity.map { "\($0.pkcs12.count) bytes, password: <redacted>" } ?? "nil"
        return Mirror(
            self,
            children: [
                "additionalRoots": additionalRoots.count, "pinnedKeys": pinnedKeys, "clientIdentity": identity,
            ],
            displayStyle: .struct)
    }

    /// A client certificate and its private key, as a PKCS#12 archive (`.p12`) and the password that opens it.
    struct ClientIdentity: Sendable, Hashable {
        /// The PKCS#12 archive's bytes: the certificate, its chain and its private key.
        var pkcs12: Data
        /// The password that opens the archive.
        var password: String
    }

    /// Whether the policy asks for nothing beyond the system's trust.
    var isDefault: Bool {
        additionalRoots.isEmpty && pinnedKeys.isEmpty && clientIdentity == nil
    }

    /// The policy in the form a transport applies it: the roots as DER certificates, the pins as digests.
    ///
    /// - Throws: ``WebserviceError/Reason/unusableTrustPolicy(argument:index:)`` for a pin that isn't the base64 of
    ///   32 bytes, or a root that isn't a certificate.
    func checked() throws(WebserviceError) -> CheckedTrust {
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
        return CheckedTrust(roots: roots, pins: pins, identity: clientIdentity)
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
}

/// A ``TrustPolicy`` checked and decoded, as a transport applies it.
struct CheckedTrust: Sendable, Hashable {
    /// The DER certificates of each of the policy's additional roots.
    let roots: [[Data]]
    /// The pinned SHA-256 digests of SubjectPublicKeyInfos; empty when nothing is pinned.
    let pins: Set<Data>
    /// The client identity, still to be opened by the transport's TLS library.
    let identity: TrustPolicy.ClientIdentity?

    /// Whether the DER certificate `leaf` has a pinned key; always true when nothing is pinned.
    func pins(_ leaf: some ContiguousBytes) -> Bool {
        pins.isEmpty || Self.pin(of: leaf).map(pins.contains) ?? false
    }

    /// The SHA-256 digest of the SubjectPublicKeyInfo of the DER certificate `certificate`, or `nil` when it isn't one.
    static func pin(of certificate: some ContiguousBytes) -> Data? {
        certificate.withUnsafeBytes { bytes in
            subjectPublicKeyInfo(ofCertificate: bytes).map { Data(sha256(UnsafeRawBufferPointer(rebasing: bytes[$0]))) }
        }
    }

    /// The error for a server whose certificate `leaf` has no pinned key: `URLError(.serverCertificateHasUnknownRoot)`,
    /// naming the pin the server's key has.
    static func unpinned(_ leaf: some ContiguousBytes, url: URL?) -> URLError {
        let key = pin(of: leaf).map { "its key is \($0.base64EncodedString())" } ?? "its certificate can't be read"
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: "The server's certificate has none of the pinned keys (\(key))."
        ]
        userInfo[NSURLErrorFailingURLErrorKey] = url
        return URLError(.serverCertificateHasUnknownRoot, userInfo: userInfo)
    }

    /// The error for an `http` URL sent by a transport that pins keys: a plain connection has no key to check.
    static func cleartext(_ url: URL) -> URLError {
        URLError(
            .appTransportSecurityRequiresSecureConnection,
            userInfo: [
                NSLocalizedDescriptionKey: "A transport that pins keys sends only https URLs.",
                NSURLErrorFailingURLErrorKey: url,
            ])
    }
}

extension WebserviceError {
    // Why a transport can't apply a ``TrustPolicy``, as ``Reason/unusableTrustPolicy(argument:index:)`` says it; the
    // description never shows the identity's password.

    /// The pinned key at `index` isn't the base64 of a 32-byte SHA-256 digest.
    static func malformedPin(index: Int) -> Self { Self(.unusableTrustPolicy(argument: "pinnedKeys", index: index)) }

    /// The additional root at `index` isn't a PEM or DER certificate.
    static func unreadableRoot(index: Int) -> Self {
        Self(.unusableTrustPolicy(argument: "additionalRoots", index: index))
    }

    /// The client identity isn't a PKCS#12 archive with a certificate and key, or its password is wrong.
    static let unreadableIdentity = Self(.unusableTrustPolicy(argument: "clientIdentity", index: nil))

    /// The transport can't enforce the policy: `URLSession` on Linux doesn't let ResourceKit check certificates.
    static let trustUnsupportedByTransport = Self(.unusableTrustPolicy(argument: nil, index: nil))
}
