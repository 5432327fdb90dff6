import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `withResponse`: the value and the response's head together, with everything the format initializer gave.
@Suite struct ResourceWithResponseTests {
    @Test func theValueComesWithTheStatusTheHeaderFieldsAndTheURL() throws {
        let url = baseURL.appendingPathComponent("episodes")
        let (episodes, response) = try Episode.all.withResponse.value(
            from: fixture("episodes.json"),
            response: httpResponse(203, url: url, headers: ["ETag": "\"v2\"", "X-RateLimit-Remaining": "41"]))
        #expect(episodes.count == 3)
        #expect(response.statusCode == 203)
        #expect(response.value(forHTTPHeaderField: "etag") == "\"v2\"")
        #expect(response.headers["X-RateLimit-Remaining"] == "41")
        #expect(response.url == url)
        #expect(response.body.data?.isEmpty == true)  // the head only: the bytes became the value
    }

    @Test func theInitializersRequestAndErrorsAreKept() throws {
        let resource = Resource<[Episode]>(get: baseURL, at: ["feed", "entry"]).decodingAPIErrors(as: APIError.self)
            .withResponse
        #expect(resource.headers["Accept"] == "application/json")
        let parseError = try #require(throws: WebserviceError.self) {
            try resource.value(from: Data(#"{"feed": {"entry": [{"id": "1"}]}}"#.utf8), response: httpResponse(200))
        }
        #expect("\(parseError)".contains("feed.entry[0]"))
        let apiError = try #require(throws: WebserviceError.self) {
            try resource.value(from: fixture("error-404.json"), response: httpResponse(404))
        }
        #expect(try requireCase(\.apiError, of: apiError).0 is APIError)
    }

    @Test func aParseWithoutAResponseSaysHowToTestIt() {
        let error = #expect(throws: (any Error).self) { try Episode.all.withResponse.parse(Data("[]".utf8)) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("value(from:response:)"))
    }

    @Test func aLoadReturnsTheFinalResponseHead() async throws {
        let transport = StubTransport.answering(
            .status(
                200, headers: ["Link": "<https://api.example.com/episodes?page=2>; rel=\"next\""],
                body: try fixture("episodes.json")))
        let (episodes, response) = try await Webservice(transport: transport).load(Episode.all.withResponse)
        #expect(episodes.count == 3)
        #expect(response.value(forHTTPHeaderField: "Link")?.contains("page=2") == true)
        #expect(response.url?.path == "/episodes")
    }
}

/// An app's decoder and API error model, said once in an initializer of its own (DefiningResources.md).
@Suite struct AppWideDecodingTests {
    struct Show: Decodable, Equatable {
        var firstAired: Date
    }

    @Test func everyResourceMadeByTheAppsInitializerUsesItsDecoderAndErrorModel() throws {
        let show = Resource<Show>(api: "shows/1")
        #expect(show.url.absoluteString == "shows/1")
        let value = try show.parse(Data(#"{"first_aired": "2016-05-20T00:00:00Z"}"#.utf8))
        #expect(value.firstAired == Date(timeIntervalSince1970: 1_463_702_400))
        let error = try #require(throws: WebserviceError.self) {
            try show.value(from: fixture("error-404.json"), response: httpResponse(404))
        }
        #expect(try requireCase(\.apiError, of: error).0 is APIError)
    }
}

extension JSONDecoder {
    /// The app's one decoder (in the article, `JSONDecoder.api`).
    fileprivate static var api: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension Resource where A: Decodable & SendableMetatype {
    /// The app's resources: relative to its web service's `baseURL`, decoded with its decoder, its errors with its
    /// model.
    fileprivate init(api path: String) {
        self = Resource(get: URL(string: path)!, decoder: .api).decodingAPIErrors(as: APIError.self, decoder: .api)
    }
}
