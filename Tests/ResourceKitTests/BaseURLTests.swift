import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A web service's `baseURL`: resources with a relative URL are resolved against it before any layer sees the
/// request, and absolute ones are left alone.
@Suite struct BaseURLTests {
    private static func sent(_ relative: String, base: String?, queryItems: [URLQueryItem] = []) async throws -> URL {
        let transport = StubTransport.answering(.status(200))
        var resource = Resource<Data>(url: try #require(URL(string: relative)), parse: { $0 })
        resource.queryItems = queryItems
        let service = Webservice(baseURL: base.flatMap(URL.init(string:)), transport: transport)
        _ = try await service.load(resource)
        return try #require(await transport.requests.first).url
    }

    @Test(
        arguments: [
            ("episodes", "https://staging.example.com/v1", "https://staging.example.com/v1/episodes"),
            ("episodes", "https://staging.example.com/v1/", "https://staging.example.com/v1/episodes"),
            ("/episodes", "https://staging.example.com/v1", "https://staging.example.com/v1/episodes"),
            ("episodes/1/media", "http://127.0.0.1:8080", "http://127.0.0.1:8080/episodes/1/media"),
            ("episodes?page=2", "https://api.example.com/v1?key=k", "https://api.example.com/v1/episodes?key=k&page=2"),
            ("caf%C3%A9", "https://api.example.com", "https://api.example.com/caf%C3%A9"),
            ("https://other.example.com/x", "https://api.example.com/v1", "https://other.example.com/x"),
            ("https://other.example.com/x", nil, "https://other.example.com/x"),
        ] as [(String, String?, String)])
    func aRelativeResourceIsResolvedAgainstTheBaseAndAnAbsoluteOneIsNot(
        relative: String, base: String?, expected: String
    ) async throws {
        #expect(try await Self.sent(relative, base: base).absoluteString == expected)
    }

    @Test func queryItemsFollowTheResolvedQuery() async throws {
        let url = try await Self.sent(
            "search?q=a", base: "https://api.example.com/v2", queryItems: [URLQueryItem(name: "tag", value: "a&b")])
        #expect(url.absoluteString == "https://api.example.com/v2/search?q=a&tag=a%26b")
    }

    @Test(arguments: [("episodes", nil), ("//evil.example/steal", "https://api.example.com"), ("x", "/relative/base")])
    func aRelativeURLThatCantBeResolvedIsRefusedBeforeAnythingIsSent(relative: String, base: String?) async throws {
        let transport = StubTransport.answering(.status(200))
        let service = Webservice(baseURL: base.flatMap(URL.init(string:)), transport: transport)
        let resource = Resource<Data>(url: try #require(URL(string: relative)), parse: { $0 })
        let error = try await #require(throws: WebserviceError.self) { try await service.load(resource) }
        #expect((try requireCase(\.encoding, of: error) as? URLError)?.code == .badURL)
        #expect(await transport.requests.isEmpty)
    }

    @Test func credentialsGoOnlyToTheResolvedOrigin() async throws {
        let transport = StubTransport.answering(.status(200))
        let authentication = Authentication(for: [URL(string: "https://api.example.com")!]) { _ in "Bearer t" }
        let resource = Resource<Data>(url: try #require(URL(string: "me")), parse: { $0 })
        for base in ["https://api.example.com/v1", "https://staging.example.com/v1"] {
            let service = Webservice(baseURL: URL(string: base), transport: transport, middleware: [authentication])
            _ = try await service.load(resource)
        }
        let sent = await transport.requests
        #expect(sent.map(\.url.host) == ["api.example.com", "staging.example.com"])
        #expect(sent.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer t", nil])
    }

    @Test func aCacheSharedByTwoEnvironmentsKeysEachByItsResolvedURL() async throws {
        let cache = ResponseCache(byteLimit: 1 << 20)
        let transport = StubTransport([
            .init(
                "GET", "https://production.example.com/*",
                .status(
                    200, headers: ["Cache-Control": "max-age=60"],
                    body: Data("production".utf8))),
            .init(
                "GET", "https://staging.example.com/*",
                .status(
                    200, headers: ["Cache-Control": "max-age=60"],
                    body: Data("staging".utf8))),
        ])
        let resource = Resource<String>(
            url: try #require(URL(string: "motd")), parse: { String(decoding: $0, as: UTF8.self) })
        let production = Webservice(
            baseURL: URL(string: "https://production.example.com"), transport: transport, cache: cache)
        let staging = Webservice(
            baseURL: URL(string: "https://staging.example.com"), transport: transport, cache: cache)
        #expect(try await production.load(resource) == "production")
        #expect(try await staging.load(resource) == "staging")
        #expect(try await production.load(resource) == "production")
        #expect(await transport.requests.count == 2)  // the third was the cache's
    }

    @Test func aBaseURLsCredentialsNeverShowInADumpOrAnError() async throws {
        let service = Webservice(
            baseURL: URL(string: "https://user:hunter2@api.example.com/v1?api_key=k3y"),
            transport: StubTransport.answering(.status(200)))
        var dumped = ""
        dump(service, to: &dumped)
        #expect(!dumped.contains("hunter2") && !dumped.contains("k3y") && dumped.contains("api.example.com"))
        #expect(!"\(service)".contains("hunter2"))
        let resource = Resource<Data>(url: try #require(URL(string: "//evil.example/x")), parse: { $0 })
        let error = try await #require(throws: WebserviceError.self) { try await service.load(resource) }
        #expect(!"\(error)".contains("hunter2") && !"\(error)".contains("k3y"))
        #expect("\(error)".contains("could not be made"))
    }

    @Test(
        arguments: [
            ("../admin", "https://api.example.com/v1/", "https://api.example.com/v1/%2E%2E/admin"),
            ("./users:search", "https://api.example.com", "https://api.example.com/users:search"),
            ("a/./b/.", "https://api.example.com", "https://api.example.com/a/b"),
            ("episodes", "file:///fixtures/", "file:///fixtures/episodes"),
        ] as [(String, String?, String)])
    func dotSegmentsStayInsideTheBasesPath(relative: String, base: String?, expected: String) async throws {
        #expect(try await Self.sent(relative, base: base).absoluteString == expected)
    }
}
