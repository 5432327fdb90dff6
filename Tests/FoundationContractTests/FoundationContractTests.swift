import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The foundation issue's public contract, which code outside the project is written against, compiled line for line:
// a reshape that breaks one of these lines fails this target's build. Each line stands as the contract wrote it; only
// its `...` and `…` are filled in, and `let _: T =` keeps its two bare expressions from being unused. (`URLSession`
// itself no longer conforms to `Transport`, as the contract's comment had it: `Webservice(session:)` wraps it.)

struct City: Equatable {
    var name: String
}

struct Episode: Codable, Sendable, Equatable {
    var id: String
    var title: String
}

/// Nothing listens on port 1 of the loopback interface: a load through the network fails at once, with no network.
let url = URL(string: "http://127.0.0.1:1/episodes")!
let other = URL(string: "http://127.0.0.1:1/other")!
let episodesURL = url
let fixture = Data(#"[{"id": "1", "title": "Networking"}]"#.utf8)
let newEpisode = Episode(id: "2", title: "Swift Talk")

extension Episode { static let all = Resource<[Episode]>(get: episodesURL) }

// Injectable transport (the seeds' URLSessionType idea), in the one-requirement form that replaced
// `data(for:) -> (Data, URLResponse)` (CHANGELOG).
struct MyTransport: Transport {
    func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        (Response(statusCode: 200, url: request.url), ResponseBody(fixture))
    }
}

@Suite struct FoundationContractTests {
    @Test func anHTTPMethodCarriesItsBodyAndMapTransformsIt() {
        let m: HTTPMethod<Data> = .post(Data())  // cases at least: get, post(Body), put(Body), patch(Body), delete
        let s: HTTPMethod<String> = HTTPMethod<Int>.post(1).map { String($0) }
        #expect(m == .post(Data()))
        #expect(s == .post("1"))
        #expect([HTTPMethod<Int>.get, .put(1), .patch(1), .delete].map(\.name) == ["GET", "PUT", "PATCH", "DELETE"])
    }

    @Test func aResourceIsAValueWhoseParseATestCallsWithFixtureBytes() throws {
        let raw = Resource<Data>(url: url, method: .get, headers: [:], parse: { data in data })
        let sameParse = Resource(url: other, method: raw.method, headers: raw.headers, parse: raw.parse)
        let bytes: Data = try raw.parse(fixture)  // synchronous, no network
        #expect(bytes == fixture)
        #expect(try sameParse.parse(fixture) == fixture)
        #expect(sameParse.url == other && sameParse.method == .get && sameParse.headers.isEmpty)
    }

    @Test func theJSONInitializerThrowsWhenTheShapeIsWrong() throws {
        let cities = Resource<[City]>(url: url, parseJSON: { json in (json as? [String])?.map(City.init) as [City]? })
        #expect(try cities.parse(Data(#"["Berlin", "Oslo"]"#.utf8)) == [City(name: "Berlin"), City(name: "Oslo")])
        #expect(throws: DecodingError.self) { try cities.parse(fixture) }
    }

    @Test func decodableResourcesComposeAndBuildTheirRequests() throws {
        let authed = Resource<[Episode]>(get: url, headers: ["Authorization": "Bearer …"])
        let created = try Resource<Episode>(url: url, method: .post(newEpisode))
        let count: Resource<Int> = Episode.all.map { $0.count }
        let request = URLRequest(resource: created)  // method, headers, JSON body + Content-Type
        #expect(try Episode.all.parse(fixture) == [Episode(id: "1", title: "Networking")])
        #expect(try count.parse(fixture) == 1)
        #expect(URLRequest(resource: authed).value(forHTTPHeaderField: "Authorization") == "Bearer …")
        #expect(request.httpMethod == "POST")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(try JSONDecoder().decode(Episode.self, from: request.httpBody ?? Data()) == newEpisode)
    }

    @Test func loadIsTheOnlyAsynchronousAPIAndThrowsWebserviceErrors() async throws {
        let service = Webservice()  // URLSession.shared
        let custom = Webservice(session: URLSession(configuration: .ephemeral))
        let stubbed = Webservice(transport: MyTransport())
        #expect(try await stubbed.load(Episode.all) == [Episode(id: "1", title: "Networking")])
        await #expect(throws: WebserviceError.self) {
            let episodes = try await service.load(Episode.all)
            Issue.record("loaded \(episodes) from a port nothing listens on")
        }
        await #expect(throws: WebserviceError.self) { try await custom.load(Episode.all) }

        var caught: WebserviceError?
        do { _ = try await service.load(Episode.all) } catch let error as WebserviceError {
            let _: Int? = error.statusCode
            let _: Data? = error.body
            caught = error
        }
        #expect((caught?.underlyingError as? URLError)?.code == .cannotConnectToHost)
        #expect(caught?.statusCode == nil && caught?.body == nil)
    }
}
