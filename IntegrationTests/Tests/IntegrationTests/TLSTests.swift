import AsyncHTTPClient
import EpisodesService
import Foundation
import HummingbirdTLS
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTPS against the Episodes server with certificates of a test CA: a load from a server the client trusts works,
/// and a certificate failure is the `URLError` code Apple platforms use, with either transport.
@Suite(.timeLimit(.minutes(1))) struct TLSTests {
    @Test(arguments: TransportKind.allCases)
    func untrustedCertificateFailsPromptlyWithServerCertificateUntrusted(kind: TransportKind) async throws {
        try await withTLSServer(\.valid) { base in
            let started = ContinuousClock.now
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(bytes(base / "echo?id=1"))
            }
            print("TLSTests: an untrusted certificate failed the load after \(ContinuousClock.now - started)")
            let urlError = try #require(error.urlError)
            #expect(urlError.code == .serverCertificateUntrusted)
            #expect(urlError.userInfo[NSUnderlyingErrorKey] != nil)
            #expect(urlError.localizedDescription.contains("certificate"))
        }
    }

    @Test func clientTrustingTheAuthorityLoadsAndRejectsBadCertificates() async throws {
        let certificates = try TestCertificates.shared.get()
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(certificates.authority)
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.redirectConfiguration = .disallow
        // As the transport's own client: by default, AsyncHTTPClient retries a failed handshake until its connect
        // timeout (10 s) passes.
        configuration.connectionPool.retryConnectionEstablishment = false
        try await withHTTPClient(configuration) { client in
            // BoringSSL doesn't say why verification failed: an expired certificate is untrusted too.
            try await Self.checkTrustedAuthority(
                with: Webservice(transport: AsyncHTTPClientTransport(client: client)),
                expired: .serverCertificateUntrusted)
        }
    }

    /// With `URLSession`, a load from a server whose CA the system trusts works, and bad certificates fail.
    ///
    /// Linux `URLSession` trusts only the system's CA bundle: FoundationNetworking reads
    /// `URLSessionCertificateAuthorityInfoFile` on Android only, and curl ignores `SSL_CERT_FILE`. So the test runs
    /// in a child process in a mount namespace of its own, where the test CA is added to the bundle, as a user
    /// would add it (`update-ca-certificates`), without touching the machine's.
    @Test(.enabled(if: SystemTrustStore.canReplaceInChild))
    func sessionTrustingTheAuthorityLoadsAndRejectsBadCertificates() async throws {
        if ProcessInfo.processInfo.environment[SystemTrustStore.childKey] != nil {
            try await Self.checkTrustedAuthority(
                with: TransportKind.urlSession.webservice(), expired: .serverCertificateHasBadDate)
            return
        }
        let certificates = try TestCertificates.shared.get()
        let child = try await SystemTrustStore.runInChild(
            trusting: certificates, test: "sessionTrustingTheAuthorityLoadsAndRejectsBadCertificates")
        #expect(child.succeeded, "the child failed:\n\(child.output)")
        #expect(child.output.contains("passed"), "the child ran no test:\n\(child.output)")
    }

    /// Loads from a server with a certificate of the trusted test CA, and fails against an expired one (with
    /// `expired`) and one for another host.
    private static func checkTrustedAuthority(with webservice: Webservice, expired: URLError.Code) async throws {
        try await withTLSServer(\.valid) { base in
            let body = try await webservice.load(bytes(base / "echo?id=7"))
            #expect(body == Data(#"{"id":"7"}"#.utf8))
        }
        try await withTLSServer(\.expired) { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(bytes(base / "echo?id=1"))
            }
            #expect(error.urlError?.code == expired)
        }
        try await withTLSServer(\.otherHost) { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(bytes(base / "echo?id=1"))
            }
            #expect(error.urlError?.code == .serverCertificateUntrusted)
        }
    }
}

/// Runs a test in a child process whose system CA bundle also holds a test CA.
enum SystemTrustStore {
    /// The environment variable that tells the test it runs in the child.
    static let childKey = "RESOURCEKIT_TLS_CHILD"
    /// The bundle curl reads on Debian and Ubuntu.
    static let bundle = "/etc/ssl/certs/ca-certificates.crt"

    /// Whether this machine lets a child process have a mount namespace of its own (`unshare -m`, as root) and has
    /// the bundle.
    static let canReplaceInChild: Bool = {
        guard FileManager.default.fileExists(atPath: bundle) else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["unshare", "-m", "true"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// Runs `test` of this binary in a child process, with `certificates`, whose `bundle` also holds their CA.
    static func runInChild(trusting certificates: TestCertificates, test: String) async throws -> ProgramResult {
        let combined = FileManager.default.temporaryDirectory
            .appendingPathComponent("resourcekit-bundle-\(UUID().uuidString).pem")
        var contents = try Data(contentsOf: URL(fileURLWithPath: bundle))
        contents.append(try Data(contentsOf: URL(fileURLWithPath: certificates.authority)))
        try contents.write(to: combined)
        defer { try? FileManager.default.removeItem(at: combined) }
        return try await runInChild(test: test, certificates: certificates, mounting: [(combined.path, bundle)])
    }

    /// Runs `test` of this binary in a child process, with `certificates`, whose `/etc/hosts` also resolves `names` to
    /// `127.0.0.1`.
    static func runInChild(resolving names: [String], certificates: TestCertificates, test: String) async throws
        -> ProgramResult
    {
        let hosts = FileManager.default.temporaryDirectory
            .appendingPathComponent("resourcekit-hosts-\(UUID().uuidString)")
        var contents = (try? Data(contentsOf: URL(fileURLWithPath: "/etc/hosts"))) ?? Data()
        contents.append(Data("\n127.0.0.1 \(names.joined(separator: " "))\n".utf8))
        try contents.write(to: hosts)
        defer { try? FileManager.default.removeItem(at: hosts) }
        return try await runInChild(test: test, certificates: certificates, mounting: [(hosts.path, "/etc/hosts")])
    }

    /// Runs `test` in a child process in a mount namespace of its own, where each file `mounts` names is bound over
    /// another.
    private static func runInChild(
        test: String, certificates: TestCertificates, mounting mounts: [(file: String, over: String)]
    ) async throws -> ProgramResult {
        let script = #"while [ "$1" != "--" ]; do mount --bind "$1" "$2" || exit 1; shift 2; done; shift; exec "$@""#
        return try await runTestsInChild(
            filter: test,
            environment: [childKey: "1", TestCertificates.directoryKey: certificates.directory],
            prefix: ["unshare", "-m", "sh", "-c", script, "sh"] + mounts.flatMap { [$0.file, $0.over] } + ["--"])
    }
}
