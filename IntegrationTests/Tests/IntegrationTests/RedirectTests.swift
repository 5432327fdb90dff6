import EpisodesService
import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirects are followed, and only harmless header fields follow one to another origin.
@Suite(.timeLimit(.minutes(1))) struct RedirectTests {
    private static let credentials = [
        "Authorization": "Bearer swift-talk-token", "Cookie": "session=42", "X-API-Key": "k",
    ]

    private func headersAfterRedirect(from base: URL, to target: String, through service: Webservice) async throws
        -> [String: String]
    {
        var redirect = Resource<[String: String]>(get: base / "faults/redirect", headers: Self.credentials)
        redirect.queryItems = [URLQueryItem(name: "to", value: target)]
        return try await service.load(redirect)
    }

    @Test(arguments: TransportKind.allCases, [301, 302, 303, 307, 308])
    func sameOriginRedirectIsFollowedWithItsCredentials(kind: TransportKind, status: Int) async throws {
        try await withServer { base in
            var redirect = Resource<[String: String]>(get: base / "faults/redirect", headers: Self.credentials)
            redirect.queryItems = [
                URLQueryItem(name: "to", value: "/faults/headers"), .init(name: "status", value: "\(status)"),
            ]
            let headers = try await kind.webservice().load(redirect)
            #expect(headers["authorization"] == "Bearer swift-talk-token")
            #expect(headers["cookie"] == "session=42")
        }
    }

    /// `Location: headers` is relative to the redirect's own path (RFC 9110 §10.2.2), not to the root, which
    /// FoundationNetworking took it for; a second relative redirect resolves against the first's target.
    @Test(
        arguments: TransportKind.allCases,
        ["headers", "./headers", "../faults/headers", "/faults/headers", "redirect?to=headers"]
    )
    func aRelativeLocationResolvesAgainstTheURLThatAnswered(kind: TransportKind, location: String) async throws {
        try await withServer { base in
            var redirect = Resource<[String: String]>(get: base / "faults/redirect")
            redirect.queryItems = [URLQueryItem(name: "to", value: location)]
            let (_, response) = try await kind.webservice().load(redirect.withResponse)
            #expect(response.url?.path == "/faults/headers")
        }
    }

    @Test(arguments: TransportKind.allCases, [301, 302, 303])
    func postRedirectedWith301To303ContinuesAsAGetWithoutTheBody(kind: TransportKind, status: Int) async throws {
        try await withServer { base in
            // /faults/headers answers GET only: a POST there would be a 404.
            var redirect = try Resource<[String: String]>(
                url: base / "faults/redirect", method: .post(Data(#"{"title": "Draft"}"#.utf8)))
            redirect.queryItems = [
                URLQueryItem(name: "to", value: "/faults/headers"), .init(name: "status", value: "\(status)"),
            ]
            let headers = try await kind.webservice().load(redirect)  // reaching the GET-only route proves the method
            // The body stays behind. (Linux's URLSession keeps the Content-Type field; AsyncHTTPClientTransport drops it.)
            #expect(headers["content-length"] == nil || headers["content-length"] == "0")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func crossOriginRedirectDropsTheCredentials(kind: TransportKind) async throws {
        try await withTwoServers { base, other in
            let target = (other / "faults/headers").absoluteString
            // With the URLSession transport, also a session of its own, made from a configuration.
            let services = kind == .urlSession ? [kind.webservice(), .urlSession(.ephemeral)] : [kind.webservice()]
            for service in services {
                let headers = try await headersAfterRedirect(from: base, to: target, through: service)
                #expect(headers["authorization"] == nil)
                #expect(headers["cookie"] == nil)
                #expect(headers["x-api-key"] == nil)
                #expect(headers["accept"] == "application/json")
            }
        }
    }

    @Test func fieldsFromTheSessionConfigurationAndAPIKeysAreDroppedToo() async throws {
        try await withTwoServers { base, other in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["Authorization": "Bearer from-configuration", "X-Client": "tests"]
            let service = Webservice.urlSession(configuration)
            var redirect = Resource<[String: String]>(get: base / "faults/redirect", headers: ["X-API-Key": "k"])
            redirect.queryItems = [URLQueryItem(name: "to", value: "/faults/headers")]
            let sameOrigin = try await service.load(redirect)
            #expect(sameOrigin["authorization"] == "Bearer from-configuration")
            #expect(sameOrigin["x-api-key"] == "k")

            redirect.queryItems = [URLQueryItem(name: "to", value: (other / "faults/headers").absoluteString)]
            let crossOrigin = try await service.load(redirect)
            #expect(crossOrigin["authorization"] == nil)
            #expect(crossOrigin["x-api-key"] == nil)
            #expect(crossOrigin["x-client"] == nil, "not known to be harmless, so not forwarded")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func redirectToAnotherHostNameOfTheSameMachineDropsTheCredentials(kind: TransportKind) async throws {
        try await withServer { base in
            // 127.0.0.1 and localhost are different origins even on the same port.
            var components = try #require(URLComponents(url: base / "faults/headers", resolvingAgainstBaseURL: false))
            components.host = "localhost"
            let target = try #require(components.url).absoluteString
            let headers = try await headersAfterRedirect(from: base, to: target, through: kind.webservice())
            #expect(headers["authorization"] == nil)
        }
    }

    #if canImport(FoundationNetworking)
        @Test func linuxSessionWithoutResourceKitsDelegateWouldLeakTheCredentials() async throws {
            // Why the rule exists: Linux's URLSession forwards Authorization to another origin by itself.
            try await withTwoServers { base, other in
                let target = (other / "faults/headers").absoluteString
                let plain = Webservice(session: URLSession(configuration: .ephemeral))
                let headers = try await headersAfterRedirect(from: base, to: target, through: plain)
                #expect(headers["authorization"] == "Bearer swift-talk-token")
            }
        }
    #endif
}
