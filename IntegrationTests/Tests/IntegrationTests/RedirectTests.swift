import EpisodesService
import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirects are followed, and only harmless header fields follow one to another origin.
@Suite(.timeLimit(.minutes(1))) struct RedirectTests {
    private static let credentials = ["Authorization": "Bearer swift-talk-token", "Cookie": "session=42"]

    private func headersAfterRedirect(from base: URL, to target: String, through service: Webservice) async throws
        -> [String: String]
    {
        var redirect = Resource<[String: String]>(get: base / "faults/redirect", headers: Self.credentials)
        redirect.queryItems = [URLQueryItem(name: "to", value: target)]
        return try await service.load(redirect)
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func sameOriginRedirectIsFollowedWithItsCredentials(status: Int) async throws {
        try await withServer { base in
            var redirect = Resource<[String: String]>(get: base / "faults/redirect", headers: Self.credentials)
            redirect.queryItems = [
                URLQueryItem(name: "to", value: "/faults/headers"), .init(name: "status", value: "\(status)"),
            ]
            let headers = try await webservice.load(redirect)
            #expect(headers["authorization"] == "Bearer swift-talk-token")
            #expect(headers["cookie"] == "session=42")
        }
    }

    @Test(arguments: [301, 302, 303])
    func postRedirectedWith301To303ContinuesAsAGetWithoutTheBody(status: Int) async throws {
        try await withServer { base in
            // /faults/headers answers GET only: a POST there would be a 404.
            var redirect = Resource<[String: String]>(
                url: base / "faults/redirect", method: .post(Data(#"{"title": "Draft"}"#.utf8)))
            redirect.queryItems = [
                URLQueryItem(name: "to", value: "/faults/headers"), .init(name: "status", value: "\(status)"),
            ]
            let headers = try await webservice.load(redirect)  // reaching the GET-only route proves the method
            // The body stays behind. (Linux's URLSession keeps the Content-Type field; AsyncHTTPClientTransport drops it.)
            #expect(headers["content-length"] == nil || headers["content-length"] == "0")
        }
    }

    @Test func crossOriginRedirectDropsTheCredentials() async throws {
        let other = try await EpisodesServer.start(configure: { $0.addFaultRoutes() })
        defer { Task { await other.stop() } }
        try await withServer { base in
            let target = (other.baseURL / "faults/headers").absoluteString
            for service in [webservice, Webservice(configuration: .ephemeral)] {
                let headers = try await headersAfterRedirect(from: base, to: target, through: service)
                #expect(headers["authorization"] == nil)
                #expect(headers["cookie"] == nil)
                #expect(headers["accept"] == "application/json")
            }
        }
        await other.stop()
    }

    @Test func fieldsFromTheSessionConfigurationAndAPIKeysAreDroppedToo() async throws {
        let other = try await EpisodesServer.start(configure: { $0.addFaultRoutes() })
        try await withServer { base in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["Authorization": "Bearer from-configuration", "X-Client": "tests"]
            let service = Webservice(configuration: configuration)
            var redirect = Resource<[String: String]>(get: base / "faults/redirect", headers: ["X-API-Key": "k"])
            redirect.queryItems = [URLQueryItem(name: "to", value: "/faults/headers")]
            let sameOrigin = try await service.load(redirect)
            #expect(sameOrigin["authorization"] == "Bearer from-configuration")
            #expect(sameOrigin["x-api-key"] == "k")

            redirect.queryItems = [URLQueryItem(name: "to", value: (other.baseURL / "faults/headers").absoluteString)]
            let crossOrigin = try await service.load(redirect)
            #expect(crossOrigin["authorization"] == nil)
            #expect(crossOrigin["x-api-key"] == nil)
            #expect(crossOrigin["x-client"] == nil, "not known to be harmless, so not forwarded")
        }
        await other.stop()
    }

    @Test func redirectToAnotherHostNameOfTheSameMachineDropsTheCredentials() async throws {
        try await withServer { base in
            // 127.0.0.1 and localhost are different origins even on the same port.
            var components = try #require(URLComponents(url: base / "faults/headers", resolvingAgainstBaseURL: false))
            components.host = "localhost"
            let target = try #require(components.url).absoluteString
            let headers = try await headersAfterRedirect(from: base, to: target, through: webservice)
            #expect(headers["authorization"] == nil)
        }
    }

    #if canImport(FoundationNetworking)
        @Test func linuxSessionWithoutResourceKitsDelegateWouldLeakTheCredentials() async throws {
            // Why the rule exists: Linux's URLSession forwards Authorization to another origin by itself.
            let other = try await EpisodesServer.start(configure: { $0.addFaultRoutes() })
            try await withServer { base in
                let target = (other.baseURL / "faults/headers").absoluteString
                let plain = Webservice(session: URLSession(configuration: .ephemeral))
                let headers = try await headersAfterRedirect(from: base, to: target, through: plain)
                #expect(headers["authorization"] == "Bearer swift-talk-token")
            }
            await other.stop()
        }
    #endif
}
