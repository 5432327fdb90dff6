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

    /// A server configuration that presents `certificate` (one of this value's paths) and the key.
    func serverConfiguration(_ certificate: String) throws -> TLSConfiguration {
        .makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
        )
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
        return certificates
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
