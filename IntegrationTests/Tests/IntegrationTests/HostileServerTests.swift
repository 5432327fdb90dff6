import EpisodesService
import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A hostile server can't crash the client, make it allocate what it claims, or learn a credential from it; and no
/// error the client reports shows one.
@Suite(.timeLimit(.minutes(1))) struct HostileServerTests {
    /// Credentials under names no blocklist knows, each with a value found nowhere else.
    private static let oddlyNamedCredentials = [
        "X-Authorization": "x-authorization-secret",
        "Authentication": "authentication-secret",
        "X-Auth": "x-auth-secret",
        "DPoP": "dpop-secret",
        "X-Auth-Pass": "x-auth-pass-secret",
        "X-JWT-Assertion": "x-jwt-assertion-secret",
    ]

    @Test(arguments: TransportKind.allCases, ["5000000000", "4000000000"])
    func contentLengthThatLiesDoesNotCrashTheClient(kind: TransportKind, announced: String) async throws {
        try await inChildProcess(case: kind, announced) {
            try await withServer { base in
                let before = try #require(processMemory("VmRSS"))
                let error = try await #require(throws: WebserviceError.self) {
                    try await kind.webservice().load(
                        bytes(base / "faults/lying-length?announce=\(announced)&bytes=4096"))
                }
                // The truncated body is a lost connection; AsyncHTTPClient refuses to gather more than 4 GB at all.
                let refusedUpFront: Bool
                if case .bodyTooLarge(limit: 4_000_000_000) = error.reason {
                    refusedUpFront = true
                } else {
                    refusedUpFront = false
                }
                let growth = try #require(processMemory("VmHWM")) - before
                print("Peak RSS growth after a Content-Length of \(announced): \(growth / 1024) KiB")
                #expect(growth < 64 * 1_048_576, "the client grew by \(growth) bytes for a 4 KB body")
                #expect(error.urlError != nil || (refusedUpFront && announced == "5000000000"), "got \(error)")
            }
        }
    }

    @Test(arguments: TransportKind.allCases, [302, 307])
    func credentialsOfAnyNameStayOnTheirOrigin(kind: TransportKind, status: Int) async throws {
        try await withTwoServers { base, other in
            var redirect = Resource<[String: String]>(
                get: base / "faults/redirect",
                headers: Self.oddlyNamedCredentials.merging(["Accept-Language": "de"]) { $1 })
            redirect.queryItems = [
                URLQueryItem(name: "to", value: (other / "faults/headers").absoluteString),
                URLQueryItem(name: "status", value: "\(status)"),
            ]
            let received = try await kind.webservice().load(redirect)
            for name in Self.oddlyNamedCredentials.keys {
                #expect(received[name.lowercased()] == nil, "\(name) reached the other origin")
            }
            #expect(received["accept-language"] == "de", "harmless fields still follow")
            #expect(received["accept"] == "application/json")
        }
    }

    @Test(arguments: TransportKind.allCases) func redirectToAFileIsNotFollowed(kind: TransportKind) async throws {
        try await withServer { base in
            var redirect = bytes(base / "faults/redirect")
            redirect.queryItems = [URLQueryItem(name: "to", value: "file:///etc/hostname")]
            let error = try await #require(throws: WebserviceError.self) { try await kind.webservice().load(redirect) }
            // The server answers, never the file: the redirect itself (302), or, where Linux's URLSession reads the
            // location as a path on the same server, that server's 404.
            #expect([302, 404].contains(error.statusCode), "got \(error)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func headersDeclaredSafeFollowACrossOriginRedirect(kind: TransportKind) async throws {
        try await withTwoServers { base, other in
            var redirect = Resource<[String: String]>(
                get: base / "faults/redirect", headers: ["X-Request-ID": "42", "X-Auth": "x-auth-secret"])
            redirect.queryItems = [URLQueryItem(name: "to", value: (other / "faults/headers").absoluteString)]
            let service = kind.webservice(crossOriginSafeHeaders: ["X-Request-ID"])
            let received = try await service.load(redirect)
            #expect(received["x-request-id"] == "42")
            #expect(received["x-auth"] == nil)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func failedLoadShowsNoCredentialInAnyTextualForm(kind: TransportKind) async throws {
        // Port 1 on loopback refuses the connection at once.
        let url = try #require(
            URL(string: "http://alice:pa55word-secret@127.0.0.1:1/episodes?access_token=t0ken-secret&q=1"))
        var resource = bytes(url)
        resource.headers = ["X-Auth": "x-auth-secret", "Authorization": "Bearer bearer-secret"]
        let error = try await #require(throws: WebserviceError.self) { try await kind.webservice().load(resource) }
        #expect(error.urlError?.code == .cannotConnectToHost)
        expectNoSecret(in: error, ["pa55word-secret", "t0ken-secret", "x-auth-secret", "bearer-secret"])
    }

    @Test(arguments: TransportKind.allCases)
    func headerValueWithALineBreakIsRefusedWithoutShowingIt(kind: TransportKind) async throws {
        try await withServer { base in
            var resource = bytes(base / "faults/headers")
            resource.headers = ["X-Token": "t0ken-secret\r\nX-Injected: 1"]
            let error = try await #require(throws: WebserviceError.self) { try await kind.webservice().load(resource) }
            let reason = try #require(error.encoding, "expected .encoding, got \(error)")
            #expect("\(reason)".contains("X-Token"))
            expectNoSecret(in: error, ["t0ken-secret"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func defaultUserAgentIsSentUnlessTheCallerSetsOne(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice()
            let sent = try await webservice.load(Resource<[String: String]>(get: base / "faults/headers"))
            #expect(sent["user-agent"]?.hasPrefix("ResourceKit/") == true, "\(sent["user-agent"] ?? "none")")
            let own = Resource<[String: String]>(get: base / "faults/headers", headers: ["User-Agent": "SwiftTalk/2"])
            #expect(try await webservice.load(own)["user-agent"] == "SwiftTalk/2")
        }
    }

    @Test func userAgentOfTheSessionConfigurationWins() async throws {
        try await withServer { base in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["User-Agent": "SwiftTalk/3"]
            let sent = try await Webservice.urlSession(configuration)
                .load(Resource<[String: String]>(get: base / "faults/headers"))
            #expect(sent["user-agent"] == "SwiftTalk/3")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func bodyInAnEncodingTheTransportCannotDecodeNamesTheEncoding(kind: TransportKind) async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(Resource<[String: String]>(get: base / "faults/encoded?encoding=br"))
            }
            #expect(error.urlError?.code == .cannotDecodeContentData, "\(error)")
            #expect(error.description.contains("Content-Encoding"), "\(error)")
            if kind == .asyncHTTPClient {
                #expect(error.description.contains(#""br""#), "\(error)")
            }
        }
    }

    /// A careless server repeats the credentials it refused in its error body: the API key the resource sent and the
    /// token `Authentication` added, also with a combining mark after it, which a match on `Character`s would miss.
    @Test(arguments: TransportKind.allCases, [401, 403])
    func rejectionThatRepeatsTheCredentialsShowsNoneInTheError(kind: TransportKind, status: Int) async throws {
        try await withServer { base in
            for token in ["tok-SECRET", "tok-SECRET\u{301}"] {
                let webservice = kind.webservice(middleware: [Authentication(for: [base]) { _ in "Bearer \(token)" }])
                let resource = Resource<Data>(
                    url: base / "faults/rejected/\(status)", headers: ["X-Api-Key": "key-SECRET"])
                let error = try await #require(throws: WebserviceError.self) { try await webservice.load(resource) }
                #expect(error.statusCode == status)
                let body = try #require(error.body)
                #expect(body.contains(bytesOf: "key-SECRET") && body.contains(bytesOf: token), "nothing repeated")
                expectNoSecret(in: error, ["SECRET"])
            }
        }
    }

    /// Checks that no textual form of `error` contains any of `secrets`, on UTF-8 bytes.
    private func expectNoSecret(in error: WebserviceError, _ secrets: [String]) {
        var dumped = ""
        dump(error, to: &dumped)
        var underlying = ""
        if let cause = error.underlyingError { dump(cause, to: &underlying) }
        let forms = [error.description, String(reflecting: error), error.localizedDescription, dumped, underlying]
        for form in forms {
            for secret in secrets {
                #expect(!form.contains(bytesOf: secret), "\(secret) leaked into: \(form)")
            }
        }
    }
}
