import EpisodesService
import Foundation
import HummingbirdTLS

/// A test certificate authority and the server certificates it signed, made with the `openssl` CLI in a temporary
/// directory, once per process: `TestCertificates.shared.get()`.
struct TestCertificates: Sendable {
    /// The directory the certificates are in.
    let directory: String

    /// The CA's certificate (PEM): what a client trusts.
    var authority: String { path("ca.pem") }
    /// The private key of every server certificate (PEM).
    var key: String { path("server.key") }
    /// Valid for `127.0.0.1` and `localhost` for a day.
    var valid: String { path("valid.pem") }
    /// For `127.0.0.1` and `localhost`, expired yesterday.
    var expired: String { path("expired.pem") }
    /// Valid, but for `example.com` only.
    var otherHost: String { path("other.pem") }
    /// Valid for `127.0.0.1` and `localhost`, with a key of its own (``rotatedKey``): the server's next key.
    var rotated: String { path("rotated.pem") }
    /// The private key of ``rotated`` (PEM).
    var rotatedKey: String { path("rotated.key") }
    /// The pin of ``key``: the base64 SHA-256 of its public key, as `openssl pkey` and `openssl dgst` compute it.
    var keyPin: String { get throws { try pin("server") } }
    /// The pin of ``rotatedKey``.
    var rotatedKeyPin: String { get throws { try pin("rotated") } }
    /// The certificate of the authority the server accepts client certificates of (PEM).
    var clientAuthority: String { path("client-ca.pem") }
    /// A client certificate of ``clientAuthority`` and its key, PKCS#12, opened with ``identityPassword``.
    var clientIdentity: String { path("client.p12") }
    /// A client certificate of the server's authority, not ``clientAuthority``, PKCS#12 with ``identityPassword``.
    var strangerIdentity: String { path("stranger.p12") }
    /// A client certificate of ``clientAuthority`` and its unencrypted key, PEM, one file.
    var clientPEMIdentity: String { path("client-identity.pem") }
    /// ``clientPEMIdentity`` with its key encrypted with ``identityPassword``.
    var clientEncryptedPEMIdentity: String { path("client-identity-encrypted.pem") }
    /// An intermediate authority the CA signed.
    var intermediate: String { path("intermediate.pem") }
    /// A certificate of ``intermediate`` for `127.0.0.1` and `localhost` with ``key``, followed by ``intermediate``: the
    /// chain a server presents.
    var chained: String { path("chained.pem") }
    /// The pin of the CA's key.
    var authorityPin: String { get throws { try pin("ca") } }
    /// The pin of ``intermediate``'s key.
    var intermediatePin: String { get throws { try pin("intermediate") } }
    /// A second CA, which signed ``otherAuthoritySigned``.
    var otherAuthority: String { path("other-ca.pem") }
    /// A certificate of ``otherAuthority`` for `127.0.0.1` and `localhost` with ``key``.
    var otherAuthoritySigned: String { path("other-signed.pem") }
    /// Valid for `api.wild.test` and `a.b.wild.test`, names a test resolves in a child process of its own.
    var wildcardNames: String { path("wild.pem") }
    /// The password of the PKCS#12 archives.
    static let identityPassword = "resourcekit-test-password"

    /// The certificates of this process, or the error that stopped `openssl`; a child process uses its parent's,
    /// in the directory its ``directoryKey`` environment variable names.
    static let shared = Result {
        if let directory = ProcessInfo.processInfo.environment[directoryKey] {
            return TestCertificates(directory: directory)
        }
        return try TestCertificates.make()
    }

    /// The environment variable that hands a child process the directory of its parent's certificates.
    static let directoryKey = "RESOURCEKIT_TLS_CERTIFICATES"

    /// The path of the file `name` in ``directory``.
    private func path(_ name: String) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent(name).path
    }

    /// A server configuration that presents `certificate` (one of this value's paths) and `key` (``key`` by
    /// default), and requires a client certificate of `clientAuthority` when it isn't `nil`.
    func serverConfiguration(
        _ certificate: String, key: String? = nil, clientAuthority: String? = nil
    ) throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: key ?? self.key, format: .pem))
        )
        if let clientAuthority {
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .file(clientAuthority)
        }
        return configuration
    }

    /// nginx's directives for a server that presents ``valid`` and, with `verifyingClients`, requires a client
    /// certificate of ``clientAuthority`` (`ssl_verify_client on`).
    func nginxDirectives(verifyingClients: Bool = true) -> String {
        let server = "ssl_certificate \(valid);\nssl_certificate_key \(key);\n"
        guard verifyingClients else { return server }
        return server + "ssl_client_certificate \(clientAuthority);\nssl_verify_client on;\n"
    }

    /// The base64 digest in `name.digest`.
    private func pin(_ name: String) throws -> String {
        try Data(contentsOf: URL(fileURLWithPath: path("\(name).digest"))).base64EncodedString()
    }

    private static func make() throws -> TestCertificates {
        let certificates = TestCertificates(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent(
                "resourcekit-tls-\(UUID().uuidString)"
            )
            .path)
        try FileManager.default.createDirectory(atPath: certificates.directory, withIntermediateDirectories: true)
        let path = certificates.path
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(
            ["req", "-x509"] + curve + ["-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2"]
                + ["-subj", "/CN=ResourceKit Test CA", "-addext", "basicConstraints=critical,CA:TRUE"]
                + ["-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try openssl(["req"] + curve + ["-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=test"])
        let loopback = "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"
        try Data(loopback.utf8).write(to: URL(fileURLWithPath: path("loopback.ext")))
        try Data("subjectAltName=DNS:example.com\n".utf8).write(to: URL(fileURLWithPath: path("other.ext")))
        // `-days -1` ends the validity a day before it starts: expired, with any clock.
        for (name, days, extensions) in [
            ("valid", "1", "loopback"), ("expired", "-1", "loopback"), ("other", "1", "other"),
        ] {
            try openssl(
                ["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key")]
                    + ["-set_serial", "\(Int.random(in: 1...Int(Int32.max)))", "-days", days]
                    + ["-extfile", path("\(extensions).ext"), "-out", path("\(name).pem")])
        }
        try makeRotationAndClients(in: certificates)
        try makeChainsAndPEMIdentities(in: certificates)
        return certificates
    }

    /// Makes the rotated certificate, the keys' pins, the client authority and the client identities.
    private static func makeRotationAndClients(in certificates: TestCertificates) throws {
        let path = certificates.path
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(
            ["req"] + curve + ["-keyout", path("rotated.key"), "-out", path("rotated.csr"), "-subj", "/CN=test"])
        try Data("extendedKeyUsage=clientAuth\n".utf8).write(to: URL(fileURLWithPath: path("client.ext")))
        try openssl(
            ["req", "-x509"] + curve + ["-keyout", path("client-ca.key"), "-out", path("client-ca.pem"), "-days", "2"]
                + ["-subj", "/CN=ResourceKit Test Client CA", "-addext", "basicConstraints=critical,CA:TRUE"]
                + ["-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try openssl(
            ["req"] + curve + ["-keyout", path("client.key"), "-out", path("client.csr"), "-subj", "/CN=client"])
        for (name, request, authority, extensions) in [
            ("rotated", "rotated", "ca", "loopback"), ("client", "client", "client-ca", "client"),
            ("stranger", "client", "ca", "client"),
        ] {
            try openssl(
                ["x509", "-req", "-in", path("\(request).csr"), "-CA", path("\(authority).pem")]
                    + ["-CAkey", path("\(authority).key"), "-set_serial", "\(Int.random(in: 1...Int(Int32.max)))"]
                    + ["-days", "1", "-extfile", path("\(extensions).ext"), "-out", path("\(name).pem")])
        }
        for name in ["client", "stranger"] {
            try openssl(
                ["pkcs12", "-export", "-in", path("\(name).pem"), "-inkey", path("client.key")]
                    + ["-out", path("\(name).p12"), "-passout", "pass:\(identityPassword)"])
        }
        for name in ["server", "rotated"] {
            try openssl([
                "pkey", "-in", path("\(name).key"), "-pubout", "-outform", "der", "-out", path("\(name).spki"),
            ])
            try openssl(["dgst", "-sha256", "-binary", "-out", path("\(name).digest"), path("\(name).spki")])
        }
    }

    /// Makes the intermediate and its chain, the second CA and its certificate, the PEM identities and the CA's and
    /// the intermediate's pins.
    private static func makeChainsAndPEMIdentities(in certificates: TestCertificates) throws {
        let path = certificates.path
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Data("basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n".utf8)
            .write(to: URL(fileURLWithPath: path("authority.ext")))
        try openssl(
            ["req"] + curve + ["-keyout", path("intermediate.key"), "-out", path("intermediate.csr")]
                + ["-subj", "/CN=ResourceKit Test Intermediate"])
        try openssl(
            ["req", "-x509"] + curve + ["-keyout", path("other-ca.key"), "-out", path("other-ca.pem"), "-days", "2"]
                + ["-subj", "/CN=ResourceKit Other Test CA", "-addext", "basicConstraints=critical,CA:TRUE"]
                + ["-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try Data("subjectAltName=DNS:api.wild.test,DNS:a.b.wild.test\n".utf8)
            .write(to: URL(fileURLWithPath: path("wild.ext")))
        for (name, request, authority, extensions) in [
            ("wild", "server", "ca", "wild"), ("intermediate", "intermediate", "ca", "authority"),
            ("leaf-of-intermediate", "server", "intermediate", "loopback"),
            ("other-signed", "server", "other-ca", "loopback"),
        ] {
            try openssl(
                ["x509", "-req", "-in", path("\(request).csr"), "-CA", path("\(authority).pem")]
                    + ["-CAkey", path("\(authority).key"), "-set_serial", "\(Int.random(in: 1...Int(Int32.max)))"]
                    + ["-days", "1", "-extfile", path("\(extensions).ext"), "-out", path("\(name).pem")])
        }
        try concatenate(["leaf-of-intermediate.pem", "intermediate.pem"], into: "chained.pem", in: certificates)
        try concatenate(["client.pem", "client.key"], into: "client-identity.pem", in: certificates)
        try openssl(
            ["pkey", "-in", path("client.key"), "-aes256", "-passout", "pass:\(identityPassword)"]
                + ["-out", path("client-encrypted.key")])
        try concatenate(
            ["client.pem", "client-encrypted.key"], into: "client-identity-encrypted.pem", in: certificates)
        for name in ["ca", "intermediate"] {
            try openssl([
                "pkey", "-in", path("\(name).key"), "-pubout", "-outform", "der", "-out", path("\(name).spki"),
            ])
            try openssl(["dgst", "-sha256", "-binary", "-out", path("\(name).digest"), path("\(name).spki")])
        }
    }

    /// Writes the files `names` one after another into the file `name`.
    private static func concatenate(_ names: [String], into name: String, in certificates: TestCertificates) throws {
        var contents = Data()
        for part in names { contents.append(try Data(contentsOf: URL(fileURLWithPath: certificates.path(part)))) }
        try contents.write(to: URL(fileURLWithPath: certificates.path(name)))
    }

    private static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw OpenSSLFailed(arguments: arguments, output: String(decoding: printed, as: UTF8.self))
        }
    }

    /// `openssl` exited with an error.
    struct OpenSSLFailed: Error, CustomStringConvertible {
        let arguments: [String]
        let output: String
        var description: String { "openssl \(arguments.joined(separator: " ")) failed: \(output)" }
    }
}

/// Starts an HTTPS Episodes server presenting `certificate` (a path in ``TestCertificates``), runs `body` with its
/// base URL, and stops it, also when `body` throws.
func withTLSServer(
    _ certificate: KeyPath<TestCertificates, String>,
    _ body: (URL) async throws -> Void
) async throws {
    let certificates = try TestCertificates.shared.get()
    let tls = try certificates.serverConfiguration(certificates[keyPath: certificate])
    try await using(EpisodesServer.start(tls: tls), body)
}

/// Starts an HTTPS Episodes server with `tls`, made from ``TestCertificates``, that counts the requests to its
/// `/counted` route in `counted`, runs `body` with its base URL, and stops it, also when `body` throws.
func withTLSServer(
    _ tls: (TestCertificates) throws -> TLSConfiguration,
    counting counted: Shared<Int>,
    _ body: (URL) async throws -> Void
) async throws {
    let server = try await EpisodesServer.start(tls: tls(try TestCertificates.shared.get())) { router in
        router.get("counted") { _, _ in
            counted.update { $0 += 1 }
            return "counted"
        }
    }
    try await using(server, body)
}
