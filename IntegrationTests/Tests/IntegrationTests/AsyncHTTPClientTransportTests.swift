import AsyncHTTPClient
import EpisodesService
import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `AsyncHTTPClientTransport` does beyond the shared suite, which runs every test with it too.
@Suite(.timeLimit(.minutes(1))) struct AsyncHTTPClientTransportTests {
    @Test func clientThatFollowsRedirectsItselfKeepsAsyncHTTPClientsNarrowerRule() async throws {
        // Documented: such a client never shows the transport a redirect, and drops only Authorization & co.
        try await withTwoServers { base, other in
            let credentials = ["Authorization": "Bearer swift-talk-token", "X-API-Key": "k"]
            var redirect = Resource<[String: String]>(get: base / "faults/redirect", headers: credentials)
            redirect.queryItems = [URLQueryItem(name: "to", value: (other / "faults/headers").absoluteString)]
            var configuration = HTTPClient.Configuration()
            configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
            try await withHTTPClient(configuration) { client in
                let service = Webservice(transport: AsyncHTTPClientTransport(client: client))
                let headers = try await service.load(redirect)
                #expect(headers["authorization"] == nil)
                #expect(headers["x-api-key"] == "k")
            }
        }
    }

    @Test func fewerRedirectsThanTheChainIsTooManyRedirects() async throws {
        try await withServer { base in
            var transport = AsyncHTTPClientTransport()
            transport.maxRedirects = 0
            let resource = Resource<[String: String]>(get: base / "faults/redirect?to=/faults/headers")
            let error = try await #require(throws: WebserviceError.self) {
                try await Webservice(transport: transport).load(resource)
            }
            #expect(error.urlError?.code == .httpTooManyRedirects)
        }
    }

    @Test func nonHTTPSchemeIsAnUnsupportedURL() async throws {
        let resource = Resource<Data>(url: try #require(URL(string: "ftp://127.0.0.1/episodes")))
        let error = try await #require(throws: WebserviceError.self) {
            try await TransportKind.asyncHTTPClient.webservice().load(resource)
        }
        #expect(error.urlError?.code == .unsupportedURL)
    }
}
