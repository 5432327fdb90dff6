import AsyncHTTPClient
import EpisodesService
import Foundation
import HummingbirdTLS
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport's trust policy against the Episodes server over loopback HTTPS, with certificates made at test time.
///
/// A private CA, pinned keys and their rotation, and a client certificate. `URLSession` on Linux can't enforce a
/// policy, so there each case checks that its transport refuses the policy when it is made.
@Suite(.timeLimit(.minutes(1))) struct TrustPolicyTests {
    /// The test CA's certificate, PEM, as a policy's additional root.
    private static func authority() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: TestCertificates.shared.get().authority))
    }

    /// A policy that trusts the test CA and pins `pins`.
    private static func pinning(_ pins: [String]) throws -> TrustPolicy {
        TrustPolicy(additionalRoots: [try authority()], pinnedKeys: pins)
    }

    /// A policy that trusts the test CA and presents the identity in the PKCS#12 file at `path`.
    private static func presenting(_ path: String, password: String = TestCertificates.identityPassword) throws
        -> TrustPolicy
    {
        TrustPolicy(
            additionalRoots: [try authority()], clientIdentity: try Data(contentsOf: URL(fileURLWithPath: path)),
            identityPassword: password)
    }

    /// The server's counted route loads through `webservice`.
    private static func expectLoads(_ webservice: Webservice, from base: URL) async throws {
        #expect(try await webservice.load(bytes(base / "counted")) == Data("counted".utf8))
    }

    /// The load of the server's counted route through `webservice` fails with `code`.
    private static func expectFailure(
        _ code: URLError.Code,
        _ webservice: Webservice,
        from base: URL
    ) async throws -> URLError? {
        let error = try await #require(throws: WebserviceError.self) {
            try await webservice.load(bytes(base / "counted"))
        }
        #expect(error.urlError?.code == code, "\(error)")
        return error.urlError
    }

    @Test(arguments: TransportKind.allCases)
    func privateAuthorityAsAdditionalRootLoadsAndOnlyWithIt(kind: TransportKind) async throws {
        let counted = Shared(0)
        try await withTLSServer({ try $0.serverConfiguration($0.valid) }, counting: counted) { base in
            try await kind.withWebservice(trust: TrustPolicy(additionalRoots: [try Self.authority()])) { webservice in
                try await Self.expectLoads(webservice, from: base)
            }
            try await kind.withWebservice(trust: TrustPolicy()) { webservice in
                _ = try await Self.expectFailure(.serverCertificateUntrusted, webservice, from: base)
            }
        }
        // An additional root doesn't make a bad certificate good.
        try await withTLSServer({ try $0.serverConfiguration($0.expired) }, counting: counted) { base in
            try await kind.withWebservice(trust: TrustPolicy(additionalRoots: [try Self.authority()])) { webservice in
                _ = try await Self.expectFailure(.serverCertificateUntrusted, webservice, from: base)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func pinnedKeyIsAccepted(kind: TransportKind) async throws {
        let certificates = try TestCertificates.shared.get()
        try await withTLSServer({ try $0.serverConfiguration($0.valid) }, counting: Shared(0)) { base in
            try await kind.withWebservice(trust: Self.pinning([try certificates.keyPin])) { webservice in
                try await Self.expectLoads(webservice, from: base)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func wrongPinIsRefusedWithItsOwnCodeBeforeAnyRequest(kind: TransportKind) async throws {
        let certificates = try TestCertificates.shared.get()
        let counted = Shared(0)
        try await withTLSServer({ try $0.serverConfiguration($0.valid) }, counting: counted) { base in
            try await kind.withWebservice(trust: Self.pinning([try certificates.rotatedKeyPin])) { webservice in
                let error = try await Self.expectFailure(.serverCertificateHasUnknownRoot, webservice, from: base)
                #expect(error?.localizedDescription.contains(try certificates.keyPin) == true, "names the server's key")
                // Again, on a new connection: the refused one isn't reused.
                _ = try await Self.expectFailure(.serverCertificateHasUnknownRoot, webservice, from: base)
            }
        }
        #expect(counted.value == 0)
    }

    @Test(arguments: TransportKind.allCases)
    func backupPinKeepsLoadingAfterTheServerRotatesItsKey(kind: TransportKind) async throws {
        let certificates = try TestCertificates.shared.get()
        let (current, backup) = (try certificates.keyPin, try certificates.rotatedKeyPin)
        let rotated: (TestCertificates) throws -> TLSConfiguration = {
            try $0.serverConfiguration($0.rotated, key: $0.rotatedKey)
        }
        try await withTLSServer({ try $0.serverConfiguration($0.valid) }, counting: Shared(0)) { base in
            try await kind.withWebservice(trust: Self.pinning([current, backup])) { webservice in
                try await Self.expectLoads(webservice, from: base)
            }
        }
        try await withTLSServer(rotated, counting: Shared(0)) { base in
            try await kind.withWebservice(trust: Self.pinning([current, backup])) { webservice in
                try await Self.expectLoads(webservice, from: base)
            }
            try await kind.withWebservice(trust: Self.pinning([current])) { webservice in
                _ = try await Self.expectFailure(.serverCertificateHasUnknownRoot, webservice, from: base)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func serverRequiringAClientCertificateGetsTheIdentity(kind: TransportKind) async throws {
        let certificates = try TestCertificates.shared.get()
        let requiring: (TestCertificates) throws -> TLSConfiguration = {
            try $0.serverConfiguration($0.valid, clientAuthority: $0.clientAuthority)
        }
        let counted = Shared(0)
        try await withTLSServer(requiring, counting: counted) { base in
            try await kind.withWebservice(trust: Self.presenting(certificates.clientIdentity)) { webservice in
                try await Self.expectLoads(webservice, from: base)
            }
            try await kind.withWebservice(trust: TrustPolicy(additionalRoots: [try Self.authority()])) { webservice in
                _ = try await Self.expectFailure(.clientCertificateRequired, webservice, from: base)
            }
            try await kind.withWebservice(trust: Self.presenting(certificates.strangerIdentity)) { webservice in
                _ = try await Self.expectFailure(.clientCertificateRejected, webservice, from: base)
            }
        }
    }

    /// What Transports.md › Trust says of stock nginx, checked against it.
    ///
    /// With `ssl_verify_client on`, nginx checks a client certificate after the handshake: it answers a missing or
    /// foreign one with its own 400 page, not a TLS failure; `error_page` turns its codes for them (496, 495) into an
    /// app's 401 and 403.
    @Test(arguments: TransportKind.allCases)
    func stockNginxAnswersAMissingOrForeignClientCertificateWithA400(kind: TransportKind) async throws {
        let certificates = try TestCertificates.shared.get()
        let verifying = certificates.nginxDirectives() + #"location = /counted { return 200 "counted"; }"#
        let mapped = """
            \(verifying)
            error_page 496 =401 /no-client-certificate;
            error_page 495 =403 /client-certificate-refused;
            location = /no-client-certificate { internal; return 401 "client certificate required"; }
            location = /client-certificate-refused { internal; return 403 "client certificate refused"; }
            """
        try await withNginxOverTLS([verifying, mapped]) { servers in
            for base in servers {
                try await kind.withWebservice(trust: Self.presenting(certificates.clientIdentity)) { webservice in
                    try await Self.expectLoads(webservice, from: base)
                }
            }
            let refused = [
                (TrustPolicy(additionalRoots: [try Self.authority()]), "No required SSL certificate was sent", 401),
                (try Self.presenting(certificates.strangerIdentity), "The SSL certificate error", 403),
            ]
            for (policy, page, mappedStatus) in refused {
                try await kind.withWebservice(trust: policy) { webservice in
                    let error = try await #require(throws: WebserviceError.self) {
                        try await webservice.load(bytes(servers[0] / "counted"))
                    }
                    #expect(error.statusCode == 400, "\(error)")
                    #expect(error.body?.contains(bytesOf: "<title>400 \(page)</title>") == true)
                    let mappedError = try await #require(throws: WebserviceError.self) {
                        try await webservice.load(bytes(servers[1] / "counted"))
                    }
                    #expect(mappedError.statusCode == mappedStatus, "\(mappedError)")
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func malformedPinIsATypedErrorWhenTheTransportIsMade(kind: TransportKind) throws {
        let error = #expect(throws: WebserviceError.self) {
            try kind.transport(trust: TrustPolicy(pinnedKeys: [Data(count: 32).base64EncodedString(), "abc="]))
        }
        #expect(error?.unusablePolicyArgument == "pinnedKeys[1]")
    }

    @Test(arguments: TransportKind.allCases)
    func identityWithAWrongPasswordIsATypedErrorWhenTheTransportIsMade(kind: TransportKind) throws {
        let certificates = try TestCertificates.shared.get()
        for policy in [
            try Self.presenting(certificates.clientIdentity, password: "wrong"),
            TrustPolicy(clientIdentity: Data("not an archive".utf8)),
        ] {
            #if canImport(FoundationNetworking)
                let expected = kind == .urlSession ? "-" : "clientIdentity"
            #else
                let expected = "clientIdentity"
            #endif
            let error = #expect(throws: WebserviceError.self) { try kind.transport(trust: policy) }
            #expect(error?.unusablePolicyArgument == expected)
            #expect(error.map { !"\($0)".contains(TestCertificates.identityPassword) } ?? false)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func transportThatPinsSendsNothingOverPlainHTTP(kind: TransportKind) async throws {
        let counted = Shared(0)
        let server = try await EpisodesServer.start { router in
            router.get("counted") { _, _ in
                counted.update { $0 += 1 }
                return "counted"
            }
        }
        try await using(server) { base in
            try await kind.withWebservice(trust: Self.pinning([try TestCertificates.shared.get().keyPin])) {
                webservice in
                _ = try await Self.expectFailure(.appTransportSecurityRequiresSecureConnection, webservice, from: base)
            }
        }
        #expect(counted.value == 0)
    }

    /// A transport made with a policy shuts its client down once its last copy is gone.
    ///
    /// AsyncHTTPClient requires a client to be shut down before it is released. In a child process, as a regression
    /// would crash it.
    @Test func droppedTransportsShutTheirClientsDown() async throws {
        try await inChildProcess {
            let policy = try Self.pinning([try TestCertificates.shared.get().keyPin])
            var clients: [HTTPClient] = []
            try await withTLSServer({ try $0.serverConfiguration($0.valid) }, counting: Shared(0)) { base in
                for _ in 0..<8 {
                    let transport = try AsyncHTTPClientTransport(trust: policy)
                    try await Self.expectLoads(Webservice(transport: transport), from: base)
                    clients.append(transport.client)
                }
                _ = try AsyncHTTPClientTransport(trust: policy)  // never used
            }
            for client in clients {
                try await waitUntil {
                    do {
                        _ = try await client.execute(
                            HTTPClientRequest(url: "https://127.0.0.1:1/"), timeout: .seconds(5))
                        return false
                    } catch {
                        return error as? HTTPClientError == .alreadyShutdown
                    }
                }
            }
        }
    }
}
