import AsyncHTTPClient
import EpisodesService
import Foundation
import HummingbirdTLS
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport's policies by host, pins of an authority's key, only the given roots, a minimum TLS version and a PEM
/// client identity, against real TLS servers on loopback: the Episodes server, stock nginx and `openssl s_server`.
///
/// Tests that take a `TransportKind` run with both transports; `URLSession` on Linux can't enforce a policy, so there
/// they check that it refuses one when it is made. The others are AsyncHTTPClient's alone: what they check (which key
/// a pin may name, the error of a refused handshake) differs on Apple platforms, where `SecTrust` decides.
@Suite(.timeLimit(.minutes(1))) struct TrustPolicyOptionsTests {
    /// The PEM file at `path`, from ``TestCertificates``.
    private static func file(_ path: KeyPath<TestCertificates, String>) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: TestCertificates.shared.get()[keyPath: path]))
    }

    /// A policy that trusts the test CA, and pins `pins`.
    private static func authority(pinning pins: [String] = []) throws -> TrustPolicy {
        TrustPolicy(additionalRoots: [try file(\.authority)], pinnedKeys: pins)
    }

    /// A policy that trusts no server: the one for hosts a transport refuses.
    private static let nothing = TrustPolicy(trustsSystemRoots: false)

    /// `base` with `localhost` for its host.
    private static func localhost(_ base: URL) throws -> URL {
        var components = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
        components.host = "localhost"
        return try #require(components.url)
    }

    /// The load of `url` through `webservice` fails with `code`; returns the error.
    @discardableResult
    private static func expectFailure(_ code: URLError.Code, _ webservice: Webservice, _ url: URL) async throws
        -> URLError?
    {
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(bytes(url)) }
        #expect(error.urlError?.code == code, "\(error)")
        return error.urlError
    }

    @Test(arguments: TransportKind.allCases)
    func twoHostsOfOneTransportEachGetTheirOwnPolicy(kind: TransportKind) async throws {
        let certificates = try TestCertificates.shared.get()
        let rotated: (TestCertificates) throws -> TLSConfiguration = {
            try $0.serverConfiguration($0.rotated, key: $0.rotatedKey)
        }
        let (current, next) = (Shared(0), Shared(0))
        let hosts = [
            "LOCALHOST.": try Self.authority(pinning: [try certificates.keyPin]),
            "127.0.0.1": try Self.authority(pinning: [try certificates.rotatedKeyPin]),
        ]
        try await withTLSServer({ try $0.serverConfiguration($0.valid) }, counting: current) { valid in
            try await withTLSServer(rotated, counting: next) { rotated in
                try await kind.withWebservice(trust: Self.nothing, hosts: hosts) { webservice in
                    #expect(try await webservice.load(bytes(Self.localhost(valid) / "counted")) == Data("counted".utf8))
                    #expect(try await webservice.load(bytes(rotated / "counted")) == Data("counted".utf8))
                    try await Self.expectFailure(.serverCertificateHasUnknownRoot, webservice, valid / "counted")
                    try await Self.expectFailure(
                        .serverCertificateHasUnknownRoot, webservice, try Self.localhost(rotated) / "counted")
                }
            }
        }
        #if canImport(FoundationNetworking)
            let loaded = kind == .urlSession ? 0 : 1
        #else
            let loaded = 1
        #endif
        #expect(current.value == loaded && next.value == loaded)
    }

    @Test(arguments: TransportKind.allCases)
    func hostNoKeyNamesIsRefusedBeforeConnectingWhenTheFallbackTrustsNothing(kind: TransportKind) async throws {
        let counted = Shared(0)
        try await withTLSServer({ try $0.serverConfiguration($0.valid) }, counting: counted) { base in
            // `*.localhost` stands for one label before `localhost`, never for `localhost` itself.
            let hosts = ["*.localhost": try Self.authority(), "127.0.0.1": try Self.authority()]
            try await kind.withWebservice(trust: Self.nothing, hosts: hosts) { webservice in
                let error = try await Self.expectFailure(
                    .serverCertificateUntrusted, webservice, try Self.localhost(base) / "counted")
                #expect(error?.localizedDescription.contains("refused before connecting") == true)
                #expect(try await webservice.load(bytes(base / "counted")) == Data("counted".utf8))
            }
        }
        #if canImport(FoundationNetworking)
            #expect(counted.value == (kind == .urlSession ? 0 : 1))
        #else
            #expect(counted.value == 1)
        #endif
    }

    /// A wildcard key covers one label: in a child process whose `/etc/hosts` resolves the names (see
    /// `SystemTrustStore`), `api.wild.test` gets `*.wild.test`'s policy, and `a.b.wild.test`, which the certificate
    /// covers too, is refused before connecting.
    @Test(.enabled(if: SystemTrustStore.canReplaceInChild), arguments: TransportKind.allCases)
    func wildcardKeyCoversExactlyOneLabel(kind: TransportKind) async throws {
        let certificates = try TestCertificates.shared.get()
        guard ProcessInfo.processInfo.environment[SystemTrustStore.childKey] != nil else {
            let child = try await SystemTrustStore.runInChild(
                resolving: ["api.wild.test", "a.b.wild.test"], certificates: certificates,
                test: "wildcardKeyCoversExactlyOneLabel")
            #expect(child.succeeded, "the child failed:\n\(child.output)")
            #expect(child.output.contains("passed"), "the child ran no test:\n\(child.output)")
            return
        }
        let counted = Shared(0)
        try await withTLSServer({ try $0.serverConfiguration($0.wildcardNames) }, counting: counted) { base in
            let port = try #require(base.port)
            let hosts = ["*.WILD.test.": try Self.authority()]
            try await kind.withWebservice(trust: Self.nothing, hosts: hosts) { webservice in
                let loaded = try await webservice.load(
                    bytes(try #require(URL(string: "https://api.wild.test:\(port)/counted"))))
                #expect(loaded == Data("counted".utf8))
                let error = try await Self.expectFailure(
                    .serverCertificateUntrusted, webservice,
                    try #require(URL(string: "https://a.b.wild.test:\(port)/counted")))
                #expect(error?.localizedDescription.contains("refused before connecting") == true)
            }
        }
        #if canImport(FoundationNetworking)
            #expect(counted.value == (kind == .urlSession ? 0 : 1))
        #else
            #expect(counted.value == 1)
        #endif
    }

    /// AsyncHTTPClient only: the system's authorities don't include the test CA, so the host no key names fails
    /// its handshake, and isn't refused before it.
    @Test func hostNoKeyNamesGetsTheFallbackPolicy() async throws {
        try await withTLSServer({ try $0.serverConfiguration($0.valid) }, counting: Shared(0)) { base in
            let transport = try AsyncHTTPClientTransport(trust: TrustPolicy(), hosts: ["localhost": Self.authority()])
            let webservice = Webservice(transport: transport)
            #expect(try await webservice.load(bytes(Self.localhost(base) / "counted")) == Data("counted".utf8))
            let error = try await Self.expectFailure(.serverCertificateUntrusted, webservice, base / "counted")
            #expect(error?.localizedDescription.contains("before connecting") == false)
            #expect(error?.userInfo[NSUnderlyingErrorKey] != nil, "the handshake's error")
        }
    }

    /// Any policy but the default implies TLS: an `http` URL to a host it covers, or an `https` redirect to one, is
    /// refused before connecting, its `Authorization` never sent in clear; a host whose policy is the default still
    /// gets `http`.
    @Test(arguments: TransportKind.allCases)
    func aPolicyOtherThanTheDefaultRefusesHTTPBeforeConnecting(kind: TransportKind) async throws {
        let certificates = try TestCertificates.shared.get()
        let counted = Shared(0)
        let plain = try await EpisodesServer.start { router in
            router.get("counted") { _, _ in
                counted.update { $0 += 1 }
                return "counted"
            }
        }
        let secure = try await EpisodesServer.start(tls: try certificates.serverConfiguration(certificates.valid)) {
            $0.addFaultRoutes()
        }
        try await using(plain) { plain in
            try await using(secure) { secure in
                let target = plain / "counted"
                var components = try #require(
                    URLComponents(url: try Self.localhost(secure) / "faults/redirect", resolvingAgainstBaseURL: false))
                components.queryItems = [URLQueryItem(name: "to", value: target.absoluteString)]
                let redirect = try #require(components.url)
                let authority = try Self.file(\.authority)
                for policy in [
                    TrustPolicy(additionalRoots: [authority], trustsSystemRoots: false),
                    TrustPolicy(additionalRoots: [authority], minimumTLSVersion: .v1_2),
                    TrustPolicy(additionalRoots: [authority], pinnedKeys: [try certificates.keyPin]),
                ] {
                    try await kind.withWebservice(trust: policy) { webservice in
                        let error = try await #require(throws: WebserviceError.self) {
                            try await webservice.load(
                                Resource<Data>(url: target, headers: ["Authorization": "Bearer secret"]))
                        }
                        #expect(error.urlError?.code == .appTransportSecurityRequiresSecureConnection, "\(error)")
                        try await Self.expectFailure(
                            .appTransportSecurityRequiresSecureConnection, webservice, redirect)
                    }
                }
                #expect(counted.value == 0)
                // Only `localhost` has a policy of its own: `127.0.0.1`, the default's, is followed over `http`.
                let hosts = ["localhost": TrustPolicy(additionalRoots: [authority])]
                try await kind.withWebservice(trust: TrustPolicy(), hosts: hosts) { webservice in
                    let loaded = try await webservice.load(bytes(redirect))
                    #expect(loaded == Data("counted".utf8))
                }
            }
        }
        #if canImport(FoundationNetworking)
            #expect(counted.value == (kind == .urlSession ? 0 : 1))
        #else
            #expect(counted.value == 1)
        #endif
    }

    /// AsyncHTTPClient only, as it follows redirects itself: `URLSession` on Apple platforms gives the redirect's
    /// response back instead of following it to a refused host.
    @Test func redirectToAnotherHostGoesThroughThatHostsPolicy() async throws {
        let certificates = try TestCertificates.shared.get()
        let counted = Shared(0)
        let server = try await EpisodesServer.start(tls: try certificates.serverConfiguration(certificates.valid)) {
            router in
            router.addFaultRoutes()
            router.get("counted") { _, _ in
                counted.update { $0 += 1 }
                return "counted"
            }
        }
        try await using(server) { base in
            let target = try Self.localhost(base) / "counted"
            var components = try #require(URLComponents(url: base / "faults/redirect", resolvingAgainstBaseURL: false))
            components.queryItems = [URLQueryItem(name: "to", value: target.absoluteString)]
            let redirect = try #require(components.url)
            for (hosts, code) in [
                (["127.0.0.1": try Self.authority()], URLError.Code.serverCertificateUntrusted),
                (
                    [
                        "127.0.0.1": try Self.authority(),
                        "localhost": try Self.authority(pinning: [try certificates.rotatedKeyPin]),
                    ], .serverCertificateHasUnknownRoot
                ),
            ] {
                let webservice = Webservice(transport: try AsyncHTTPClientTransport(trust: Self.nothing, hosts: hosts))
                let error = try await Self.expectFailure(code, webservice, redirect)
                #expect(error?.failingURL?.host == "localhost")
            }
            #expect(counted.value == 0)
            let followed = try AsyncHTTPClientTransport(
                trust: Self.nothing, hosts: ["127.0.0.1": try Self.authority(), "localhost": try Self.authority()])
            #expect(try await Webservice(transport: followed).load(bytes(redirect)) == Data("counted".utf8))
        }
        #expect(counted.value == 1)
    }

    /// AsyncHTTPClient only: it anchors every chain at the roots whose key a policy pins, so a pin of the CA's key
    /// holds through an intermediate, and a server of another of the policy's roots is refused in the handshake.
    @Test func pinOfTheAuthoritysKeyHoldsForEveryCertificateItSigned() async throws {
        let certificates = try TestCertificates.shared.get()
        let pinningAuthority = TrustPolicy(
            additionalRoots: [try Self.file(\.authority), try Self.file(\.otherAuthority)],
            pinnedKeys: [try certificates.authorityPin])
        for served in [certificates.valid, certificates.chained] {
            try await withTLSServer({ try $0.serverConfiguration(served) }, counting: Shared(0)) { base in
                let webservice = Webservice(transport: try AsyncHTTPClientTransport(trust: pinningAuthority))
                #expect(try await webservice.load(bytes(base / "counted")) == Data("counted".utf8), "\(served)")
            }
        }
        let counted = Shared(0)
        try await withTLSServer({ try $0.serverConfiguration($0.otherAuthoritySigned) }, counting: counted) { base in
            let webservice = Webservice(transport: try AsyncHTTPClientTransport(trust: pinningAuthority))
            try await Self.expectFailure(.serverCertificateUntrusted, webservice, base / "counted")
            // Without the pin, the other root is trusted.
            let unpinned = TrustPolicy(additionalRoots: [try Self.file(\.otherAuthority)])
            #expect(
                try await Webservice(transport: AsyncHTTPClientTransport(trust: unpinned)).load(bytes(base / "counted"))
                    == Data("counted".utf8))
        }
        #expect(counted.value == 1)
    }

    /// AsyncHTTPClient only, the documented limitation: it can't see the chain it verified beyond the leaf, so a
    /// pin of an intermediate's key (not one of the policy's roots) never matches, and the server is refused as
    /// unpinned; `URLSession` on Apple platforms matches it.
    @Test func pinOfAnIntermediatesKeyIsRefusedByAsyncHTTPClient() async throws {
        let certificates = try TestCertificates.shared.get()
        let counted = Shared(0)
        try await withTLSServer({ try $0.serverConfiguration($0.chained) }, counting: counted) { base in
            let policy = try Self.authority(pinning: [try certificates.intermediatePin])
            let webservice = Webservice(transport: try AsyncHTTPClientTransport(trust: policy))
            try await Self.expectFailure(.serverCertificateHasUnknownRoot, webservice, base / "counted")
            // The leaf's own key still matches.
            let leaf = try Self.authority(pinning: [try certificates.intermediatePin, try certificates.keyPin])
            #expect(
                try await Webservice(transport: AsyncHTTPClientTransport(trust: leaf)).load(bytes(base / "counted"))
                    == Data("counted".utf8))
        }
        #expect(counted.value == 1)
    }

    /// AsyncHTTPClient only: without the system's authorities, a server of another CA is refused even though the
    /// system's would not matter, and one of the given root loads.
    @Test func onlyTheGivenRootsAnchorWhenTheSystemsAreLeftOut() async throws {
        let counted = Shared(0)
        try await withTLSServer({ try $0.serverConfiguration($0.otherAuthoritySigned) }, counting: counted) { base in
            let both = [try Self.file(\.authority), try Self.file(\.otherAuthority)]
            for (roots, loads) in [(both, true), ([try Self.file(\.authority)], false)] {
                let policy = TrustPolicy(additionalRoots: roots, trustsSystemRoots: false)
                let webservice = Webservice(transport: try AsyncHTTPClientTransport(trust: policy))
                if loads {
                    #expect(try await webservice.load(bytes(base / "counted")) == Data("counted".utf8))
                } else {
                    try await Self.expectFailure(.serverCertificateUntrusted, webservice, base / "counted")
                }
            }
        }
        #expect(counted.value == 1)
    }

    /// AsyncHTTPClient only: the system's bundle holds the test CA here, in a child process with a mount namespace
    /// of its own (see `SystemTrustStore`), so `trustsSystemRoots: false` must leave it out.
    @Test(.enabled(if: SystemTrustStore.canReplaceInChild))
    func withoutTheSystemsRootsTheSystemsCAIsNotTrusted() async throws {
        guard ProcessInfo.processInfo.environment[SystemTrustStore.childKey] != nil else {
            let child = try await SystemTrustStore.runInChild(
                trusting: try TestCertificates.shared.get(), test: "withoutTheSystemsRootsTheSystemsCAIsNotTrusted")
            #expect(child.succeeded, "the child failed:\n\(child.output)")
            #expect(child.output.contains("passed"), "the child ran no test:\n\(child.output)")
            return
        }
        try await withTLSServer({ try $0.serverConfiguration($0.valid) }, counting: Shared(0)) { base in
            let system = Webservice(transport: try AsyncHTTPClientTransport(trust: TrustPolicy()))
            #expect(try await system.load(bytes(base / "counted")) == Data("counted".utf8), "the CA is the system's")
            let other = TrustPolicy(additionalRoots: [try Self.file(\.otherAuthority)], trustsSystemRoots: false)
            let webservice = Webservice(transport: try AsyncHTTPClientTransport(trust: other))
            try await Self.expectFailure(.serverCertificateUntrusted, webservice, base / "counted")
            let nothing = Webservice(transport: try AsyncHTTPClientTransport(trust: Self.nothing))
            try await Self.expectFailure(.serverCertificateUntrusted, nothing, base / "counted")
        }
    }

    /// AsyncHTTPClient only: a server limited to TLS 1.2, `openssl s_server -tls1_2` and nginx with
    /// `ssl_protocols TLSv1.2`, loads with a minimum of 1.2 and is refused in the handshake with 1.3, before any
    /// request reaches it.
    @Test func minimumTLSVersionRefusesAnOlderServer() async throws {
        let certificates = try TestCertificates.shared.get()
        let policy = { (version: TrustPolicy.TLSVersion?) in
            TrustPolicy(additionalRoots: [try Self.file(\.authority)], minimumTLSVersion: version)
        }
        try await withOpenSSLServer(certificate: certificates.valid, key: certificates.key, options: ["-tls1_2"]) {
            server in
            let refusing = Webservice(transport: try AsyncHTTPClientTransport(trust: policy(.v1_3)))
            try await Self.expectFailure(.secureConnectionFailed, refusing, server.base)
            #expect(server.applicationRecordsReceived == 0)
            for version in [nil, TrustPolicy.TLSVersion.v1_2] {
                let webservice = Webservice(transport: try AsyncHTTPClientTransport(trust: policy(version)))
                let page = try await webservice.load(bytes(server.base))
                #expect(page.contains(bytesOf: "Protocol  : TLSv1.2"), "s_server's page names the version")
            }
            #expect(server.applicationRecordsReceived == 2)
        }
        let nginx = { (protocols: String) in
            """
            \(certificates.nginxDirectives(verifyingClients: false))
            ssl_protocols \(protocols);
            location = /version { return 200 "$ssl_protocol"; }
            """
        }
        try await withNginxOverTLS([nginx("TLSv1.2"), nginx("TLSv1.2 TLSv1.3")]) { servers in
            let refusing = Webservice(transport: try AsyncHTTPClientTransport(trust: policy(.v1_3)))
            try await Self.expectFailure(.secureConnectionFailed, refusing, servers[0] / "version")
            #expect(try await refusing.load(bytes(servers[1] / "version")) == Data("TLSv1.3".utf8))
            let older = Webservice(transport: try AsyncHTTPClientTransport(trust: policy(.v1_2)))
            #expect(try await older.load(bytes(servers[0] / "version")) == Data("TLSv1.2".utf8))
        }
    }

    /// AsyncHTTPClient only: on Apple platforms the Security framework makes an identity of a PEM key only in a
    /// keychain, so there a PEM identity fails when the transport is made.
    @Test func pemClientIdentityIsPresentedToNginxAndOpenSSL() async throws {
        let certificates = try TestCertificates.shared.get()
        let password = TestCertificates.identityPassword
        let verifying = certificates.nginxDirectives() + #"location = /client { return 200 "$ssl_client_verify"; }"#
        let presenting = { (identity: KeyPath<TestCertificates, String>, password: String) in
            TrustPolicy(
                additionalRoots: [try Self.file(\.authority)], clientIdentity: try Self.file(identity),
                identityPassword: password)
        }
        try await withNginxOverTLS([verifying]) { servers in
            for policy in [
                try presenting(\.clientPEMIdentity, ""),
                try presenting(\.clientEncryptedPEMIdentity, password),
            ] {
                let webservice = Webservice(transport: try AsyncHTTPClientTransport(trust: policy))
                #expect(try await webservice.load(bytes(servers[0] / "client")) == Data("SUCCESS".utf8))
            }
        }
        // OpenSSL checks the certificate in the handshake, and refuses a client without one there.
        try await withOpenSSLServer(
            certificate: certificates.valid, key: certificates.key,
            options: ["-Verify", "1", "-CAfile", certificates.clientAuthority]
        ) { server in
            let webservice = Webservice(
                transport: try AsyncHTTPClientTransport(trust: try presenting(\.clientEncryptedPEMIdentity, password)))
            #expect(try await webservice.load(bytes(server.base)).contains(bytesOf: "Subject: CN=client"))
            let anonymous = Webservice(transport: try AsyncHTTPClientTransport(trust: try Self.authority()))
            try await Self.expectFailure(.clientCertificateRequired, anonymous, server.base)
        }
        // A wrong password, and a key that isn't the certificate's: refused when the transport is made.
        let mismatched = TrustPolicy(
            clientIdentity: try Self.file(\.clientAuthority)
                + (try Data(contentsOf: URL(fileURLWithPath: certificates.key))))
        for policy in [try presenting(\.clientEncryptedPEMIdentity, "wrong"), mismatched] {
            let error = #expect(throws: WebserviceError.self) { try AsyncHTTPClientTransport(trust: policy) }
            #expect(error?.unusablePolicyArgument == "clientIdentity")
        }
        let wrong = try presenting(\.clientEncryptedPEMIdentity, "wrong")
        let error = #expect(throws: WebserviceError.self) { try AsyncHTTPClientTransport(trust: wrong) }
        #expect(
            error.map { !"\($0)".contains(TestCertificates.identityPassword) && !"\($0)".contains("PRIVATE") } == true)
    }

    /// AsyncHTTPClient only: the transport's clients, one per distinct policy, all shut down once it is gone; in a
    /// child process, as a regression would crash it.
    @Test func droppedTransportShutsEveryHostsClientDown() async throws {
        try await inChildProcess {
            var transport: AsyncHTTPClientTransport? = try AsyncHTTPClientTransport(
                trust: TrustPolicy(), hosts: ["localhost": Self.authority(), "127.0.0.1": Self.authority(pinning: [])])
            let client = try #require(transport?.client)
            transport = nil
            try await waitUntil {
                do {
                    _ = try await client.execute(HTTPClientRequest(url: "https://127.0.0.1:1/"), timeout: .seconds(5))
                    return false
                } catch {
                    return error as? HTTPClientError == .alreadyShutdown
                }
            }
        }
    }
}
