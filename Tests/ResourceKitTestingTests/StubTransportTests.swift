import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The testing kit's stub transport: routes by method and URL pattern, answers, and the requests it saw.
@Suite struct StubTransportTests {
    private let base = URL(string: "https://api.example.com")!

    @Test(arguments: [
        ("/episodes", "https://api.example.com/episodes", true),
        ("/episodes", "https://api.example.com/episodes/1", false),
        ("/episodes/*", "https://api.example.com/episodes/1", true),
        ("/episodes/*/media", "https://other.example.com/episodes/7/media?size=large", true),
        ("/episodes/**", "https://api.example.com/episodes/1/media/hd", true),
        ("https://api.example.com/episodes/*", "https://API.example.com/episodes/1", true),
        ("https://api.example.com/episodes/*", "http://api.example.com/episodes/1", false),
        ("https://api.example.com:8443/x", "https://api.example.com/x", false),
        ("/search?q=swift", "https://api.example.com/search?q=swift", true),
        ("/search?q=swift", "https://api.example.com/search?q=kotlin", false),
    ])
    func patternsMatchPathsSegmentsOriginsAndQueries(pattern: String, url: String, matches: Bool) throws {
        #expect(URLPattern(pattern).matches(try #require(URL(string: url))) == matches)
    }

    @Test(arguments: [
        ("/users/José", "https://api.example.com/users/Jos%C3%A9", true),
        ("/files/my report.pdf", "https://api.example.com/files/my%20report.pdf", true),
        ("/users/Jos%c3%a9", "https://api.example.com/users/Jos%C3%A9", true),
        ("https://api.example.com/users/José", "https://api.example.com/users/Jos%C3%A9", true),
        ("/users/José", "https://api.example.com/users/Jose", false),
    ])
    func segmentsMatchWithPercentEncodingRemoved(pattern: String, url: String, matches: Bool) throws {
        #expect(URLPattern(pattern).matches(try #require(URL(string: url))) == matches)
    }

    @Test(arguments: [
        ("http://localhost/x", "http://localhost:54321/x", true),
        ("https://api.example.com/x", "https://api.example.com:443/x", true),
        ("https://api.example.com:443/x", "https://api.example.com/x", true),
        ("http://api.example.com:80/x", "http://api.example.com/x", true),
        ("https://api.example.com:8443/x", "https://api.example.com:8443/x", true),
        ("https://api.example.com:8443/x", "https://api.example.com/x", false),
        ("https://api.example.com:443/x", "https://api.example.com:8443/x", false),
        ("http://localhost:8080/x", "http://localhost:8081/x", false),
    ])
    func aWholeURLPatternMatchesThePortItNamesOrAnyWhenItNamesNone(pattern: String, url: String, matches: Bool) throws {
        #expect(URLPattern(pattern).matches(try #require(URL(string: url))) == matches)
    }

    @Test func theFirstMatchingRouteAnswersAndEveryRequestIsRecorded() async throws {
        let stub = StubTransport([
            .init("GET", "/episodes/1", .json(#"{"id":"1"}"#)),
            .init("GET", "/episodes/*", .status(404)),
            .init("post", "/episodes", .status(201, headers: ["Location": "/episodes/2"])),
        ])
        let webservice = Webservice(transport: stub)
        let one = Resource<Data>(url: base.appendingPathComponent("episodes/1"))
        #expect(try await webservice.load(one) == Data(#"{"id":"1"}"#.utf8))
        let error = try await #require(throws: WebserviceError.self) {
            try await webservice.load(Resource<Data>(url: base.appendingPathComponent("episodes/9")))
        }
        #expect(error.statusCode == 404)
        try await webservice.load(Resource<Void>(url: base.appendingPathComponent("episodes"), method: .post(Data())))
        #expect(
            await stub.requests.map { "\($0.method) \($0.url.path)" } == [
                "GET /episodes/1", "GET /episodes/9", "POST /episodes",
            ])
    }

    @Test func anUnroutedRequestFailsNamingIt() async throws {
        let webservice = Webservice(transport: StubTransport([]))
        let error = try await #require(throws: WebserviceError.self) {
            try await webservice.load(Resource<Data>(url: base.appendingPathComponent("nowhere")))
        }
        #expect(error.description.contains("No stub route answers GET https://api.example.com/nowhere"))
    }

    @Test func anUnroutedRequestsErrorNamesItWithoutItsCredentials() async throws {
        let url = try #require(URL(string: "https://user:hunter2@api.example.com/nowhere?api_key=s3cret&page=2"))
        let transportError = await #expect(throws: URLError.self) {
            try await StubTransport([]).data(for: Request(url: url))
        }
        let loadError = await #expect(throws: WebserviceError.self) {
            try await Webservice(transport: StubTransport([])).load(Resource<Data>(url: url))
        }
        let descriptions = [transportError?.localizedDescription, loadError?.description, loadError.map { "\($0)" }]
        for description in descriptions {
            let text = try #require(description)
            #expect(text.contains("api.example.com/nowhere"), "\(text)")
            #expect(!text.contains("hunter2") && !text.contains("s3cret"), "\(text)")
        }
    }

    @Test func failuresFixturesAndDelaysAreAnswered() async throws {
        let fixture = FileManager.default.temporaryDirectory.appendingPathComponent("stub-\(UUID().uuidString).json")
        try Data("[1,2]".utf8).write(to: fixture)
        defer { try? FileManager.default.removeItem(at: fixture) }
        let stub = StubTransport([
            .init("GET", "/offline", .failure(.notConnectedToInternet)),
            .init("GET", "/numbers", .fixture(fixture)),
            .init("GET", "/slow", .json("[]").delayed(by: 3600)),
        ])
        let webservice = Webservice(transport: stub)
        let offline = try await #require(throws: WebserviceError.self) {
            try await webservice.load(Resource<Data>(url: base.appendingPathComponent("offline")))
        }
        #expect((offline.underlyingError as? URLError)?.code == .notConnectedToInternet)
        #expect(try await webservice.load(Resource<[Int]>(get: base.appendingPathComponent("numbers"))) == [1, 2])
        let slow = Task { try await webservice.load(Resource<Data>(url: base.appendingPathComponent("slow"))) }
        slow.cancel()
        await #expect(throws: CancellationError.self) { try await slow.value }
    }

    @Test func theMethodStarMatchesAnyMethodAndAComputedAnswerReadsTheRequest() async throws {
        struct Unplugged: Error {}
        let stub = StubTransport([
            .init("GET", "/unplugged", .computed { _ in throw Unplugged() }),
            .init(
                "*", "/**",
                .computed { request in
                    request.value(forHTTPHeaderField: "Authorization") == "Bearer t1"
                        ? .status(200, body: Data((request.method).utf8)) : .status(401)
                }),
        ])
        let webservice = Webservice(transport: stub)
        var delete = Resource<Data>(url: base.appendingPathComponent("episodes/1"), method: .delete)
        delete.headers["Authorization"] = "Bearer t1"
        #expect(try await webservice.load(delete) == Data("DELETE".utf8))
        let error = try await #require(throws: WebserviceError.self) {
            try await webservice.load(Resource<Data>(url: base.appendingPathComponent("episodes")))
        }
        #expect(error.statusCode == 401)
        let unplugged = try await #require(throws: WebserviceError.self) {
            try await webservice.load(Resource<Data>(url: base.appendingPathComponent("unplugged")))
        }
        #expect(unplugged.underlyingError is Unplugged)
    }

    @Test func aSequenceAnswersInTurnRepeatsItsLastAndItsCopiesShareTheTurn() async throws {
        let stub = StubTransport([.init("GET", "/thing", .sequence([.status(503), .json("1"), .json("2")]))])
        let copy = stub
        let thing = Resource<Int>(get: base.appendingPathComponent("thing"))
        await #expect(throws: WebserviceError.self) { try await Webservice(transport: stub).load(thing) }
        #expect(try await Webservice(transport: copy).load(thing) == 1)
        #expect(try await Webservice(transport: stub).load(thing) == 2)
        #expect(try await Webservice(transport: stub).load(thing) == 2)
        #expect(await stub.requests.count == 4)
        let empty = Webservice(transport: StubTransport([.init("GET", "/thing", .sequence([]))]))
        await #expect(throws: WebserviceError.self) { try await empty.load(thing) }
    }
}
