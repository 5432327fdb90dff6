#if AsyncHTTPClient
    import AsyncHTTPClient
    import EpisodesService
    import Foundation
    import ResourceKit
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// What `AsyncHTTPClientTransport` does beyond the shared suite, which runs against it with this trait on.
    @Suite(.timeLimit(.minutes(1))) struct AsyncHTTPClientTransportTests {
        private static let credentials = ["Authorization": "Bearer swift-talk-token", "X-API-Key": "k"]

        /// Runs `body` with a client of `configuration`, shutting the client down afterwards.
        private func withClient(
            _ configuration: HTTPClient.Configuration,
            _ body: (HTTPClient) async throws -> Void
        ) async throws {
            let client = HTTPClient(eventLoopGroup: .singletonMultiThreadedEventLoopGroup, configuration: configuration)
            do {
                try await body(client)
                try await client.shutdown()
            } catch {
                try await client.shutdown()
                throw error
            }
        }

        @Test func crossOriginRedirectDropsEveryCredentialHeader() async throws {
            let other = try await EpisodesServer.start(configure: { $0.addFaultRoutes() })
            try await withServer { base in
                var redirect = Resource<[String: String]>(get: base / "faults/redirect", headers: Self.credentials)
                let target = (other.baseURL / "faults/headers").absoluteString
                redirect.queryItems = [URLQueryItem(name: "to", value: target)]
                let headers = try await Webservice(transport: AsyncHTTPClientTransport()).load(redirect)
                #expect(headers["authorization"] == nil)
                #expect(headers["x-api-key"] == nil)
                #expect(headers["accept"] == "application/json")
            }
            await other.stop()
        }

        @Test func clientThatFollowsRedirectsItselfKeepsAsyncHTTPClientsNarrowerRule() async throws {
            // Documented: such a client never shows the transport a redirect, and drops only Authorization & co.
            let other = try await EpisodesServer.start(configure: { $0.addFaultRoutes() })
            try await withServer { base in
                var redirect = Resource<[String: String]>(get: base / "faults/redirect", headers: Self.credentials)
                let target = (other.baseURL / "faults/headers").absoluteString
                redirect.queryItems = [URLQueryItem(name: "to", value: target)]
                var configuration = HTTPClient.Configuration()
                configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
                try await withClient(configuration) { client in
                    let service = Webservice(transport: AsyncHTTPClientTransport(client: client))
                    let headers = try await service.load(redirect)
                    #expect(headers["authorization"] == nil)
                    #expect(headers["x-api-key"] == "k")
                }
            }
            await other.stop()
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

        @Test func clientsReadTimeoutIsTheIdleTimeout() async throws {
            try await withServer { base in
                var configuration = HTTPClient.Configuration()
                configuration.redirectConfiguration = .disallow
                configuration.timeout.read = .milliseconds(300)
                try await withClient(configuration) { client in
                    let error = try await #require(throws: WebserviceError.self) {
                        try await Webservice(transport: AsyncHTTPClientTransport(client: client))
                            .load(bytes(base / "faults/stall?ms=5000"))
                    }
                    #expect(error.urlError?.code == .timedOut)
                }
            }
        }

        @Test func nonHTTPSchemeIsAnUnsupportedURL() async throws {
            let resource = Resource<Data>(url: try #require(URL(string: "ftp://127.0.0.1/episodes")))
            let error = try await #require(throws: WebserviceError.self) {
                try await Webservice(transport: AsyncHTTPClientTransport()).load(resource)
            }
            #expect(error.urlError?.code == .unsupportedURL)
        }
    }
#endif
