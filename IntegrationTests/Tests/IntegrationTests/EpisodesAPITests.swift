import Foundation
import ResourceKit
import SwiftTalk
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every public initializer and method of ResourceKit, over real HTTP to the Episodes service, with each transport.
@Suite(.timeLimit(.minutes(1))) struct EpisodesAPITests {
    @Test(arguments: TransportKind.allCases)
    func decodableGetLoadsTheEpisodeList(kind: TransportKind) async throws {
        try await withServer { base in
            let episodes = try await kind.webservice().load(Episode.all(at: base))
            #expect(episodes.map(\.number) == [1, 2, 3])
            #expect(episodes.allSatisfy { $0.url.absoluteString.hasPrefix(base.absoluteString) })
        }
    }

    @Test(arguments: TransportKind.allCases)
    func modelResourcesFollowTheServersLinks(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice()
            let first = try #require(try await webservice.load(Episode.all(at: base)).first)
            #expect(try await webservice.load(Episode.one(id: first.id, at: base)) == first)
            let media = try await webservice.load(first.media)
            #expect(media.episodeID == first.id)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func encodableBodiesCreateReplaceAndUpdate(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice()
            let created = try await webservice.load(
                Episode.create(EpisodeDraft(title: "Tiny Networking", synopsis: "Resources as values"), at: base))
            #expect(created.title == "Tiny Networking")
            #expect(created.number == 4)

            let replaced = try await webservice.load(
                created.replace(with: EpisodeDraft(title: "Tiny Networking II", synopsis: "Again")))
            #expect(replaced.title == "Tiny Networking II")
            #expect(replaced.synopsis == "Again")

            let updated = try await webservice.load(created.update(EpisodePatch(title: "Renamed")))
            #expect(updated.title == "Renamed")
            #expect(updated.synopsis == "Again")

            #expect(try await webservice.load(Episode.all(at: base)).map(\.title).last == "Renamed")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func deleteWithAVoidResourceAndThenTheEpisodeIsGone(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice()
            let episode = try await webservice.load(Episode.one(id: "2", at: base))
            try await webservice.load(episode.delete)
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(Episode.one(id: "2", at: base))
            }
            #expect(error.statusCode == 404)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func rawBodyMethodSendsTheBytesUnchanged(kind: TransportKind) async throws {
        try await withServer { base in
            let body = Data(#"{"title": "Raw", "synopsis": "Bytes as they are"}"#.utf8)
            let resource = try Resource<Episode>(url: base / "episodes/1", method: .put(body))
            let replaced = try await kind.webservice().load(resource)
            #expect(replaced.title == "Raw")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func jsonSerializationResourceShapesTheJSON(kind: TransportKind) async throws {
        try await withServer { base in
            let titles = Resource<[String]>(
                url: base / "episodes",
                parseJSON: { json in (json as? [[String: Any]])?.compactMap { $0["title"] as? String } })
            let loaded = try await kind.webservice().load(titles)
            #expect(loaded.count == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func responseAwareParseReadsTheLocationOfACreatedEpisode(kind: TransportKind) async throws {
        try await withServer { base in
            let body = try JSONEncoder().encode(EpisodeDraft(title: "Located", synopsis: "Where?"))
            let location = Resource<String?>(
                url: base / "episodes",
                method: .post(body),
                headers: ["Content-Type": "application/json"],
                parse: { _, response in response?.value(forHTTPHeaderField: "Location") })
            let path = try #require(try await kind.webservice().load(location))
            #expect(path.hasSuffix("/episodes/4"))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func mapComposesOverTheNetwork(kind: TransportKind) async throws {
        try await withServer { base in
            let count = try await kind.webservice().load(Episode.all(at: base).map(\.count))
            #expect(count == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func bearerTokenIsSentAndAWrongOneIsATypedError(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice()
            let account = try await webservice.load(Account.current(at: base, token: "swift-talk-token"))
            #expect(account.name == "Chris")
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(
                    Account.current(at: base, token: "wrong").decodingAPIErrors(as: APIError.self))
            }
            #expect(error.statusCode == 401)
            #expect((error.underlyingError as? APIError)?.error == "unauthorized")
            #expect(error.response?.value(forHTTPHeaderField: "www-authenticate")?.hasPrefix("Bearer") == true)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func notFoundBecomesTheAPIsOwnTypedError(kind: TransportKind) async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(Episode.one(id: "99", at: base).decodingAPIErrors(as: APIError.self))
            }
            let (apiError, response) = try #require(error.apiError, "expected apiError, got \(error)")
            #expect(apiError as? APIError == APIError(error: "not_found", reason: "No episode with id 99"))
            #expect(response.statusCode == 404)
            #expect(String(decoding: response.body.data ?? Data(), as: UTF8.self).contains("No episode with id 99"))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func queryItemsArriveExactlyAsSet(kind: TransportKind) async throws {
        try await withServer { base in
            struct Echo: Decodable {
                var raw: String
                var items: [[String]]
            }
            var resource = Resource<Echo>(get: base / "faults/query")
            let values = ["C++ & Swift = fun", "a+b", "naïve 東京", "100%", ""]
            resource.queryItems = values.map { URLQueryItem(name: "q", value: $0) }
            let echo = try await kind.webservice().load(resource)
            #expect(echo.items == values.map { ["q", $0] })
            #expect(!echo.raw.contains("+"))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func widerAcceptableStatusCodesAcceptA304(kind: TransportKind) async throws {
        try await withServer { base in
            var resource = bytes(base / "faults/status/304")
            resource.acceptableStatusCodes = 200..<400
            let body = try await kind.webservice().load(resource)
            #expect(body.isEmpty)
        }
    }

    @Test func everyWebserviceInitializerLoadsFromTheServer() async throws {
        try await withServer { base in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["X-Client": "integration"]
            let session = URLSession(configuration: .ephemeral)
            let services = [
                Webservice(), Webservice(transport: URLSessionTransport(configuration: configuration)),
                Webservice(session: session), Webservice(transport: URLSessionTransport(session: session)),
            ]
            for service in services {
                #expect(try await service.load(Episode.all(at: base)).count == 3)
            }
            let headers = try await Webservice(transport: URLSessionTransport(configuration: configuration)).load(
                Resource<[String: String]>(get: base / "faults/headers"))
            #expect(headers["x-client"] == "integration")
        }
    }

    @Test func urlRequestFromAResourceIsWhatTheServerReceives() async throws {
        try await withServer { base in
            var resource = Resource<[String: String]>(get: base / "faults/headers", headers: ["X-Trace": "abc"])
            resource.timeout = 30
            let request = URLRequest(resource: resource)
            let (data, response) = try await URLSession.shared.data(for: request)
            let headers = try resource.value(from: data, response: response)
            #expect(headers["x-trace"] == "abc")
            #expect(headers["accept"] == "application/json")
        }
    }
}

/// The service's error body, decoded by the tests themselves (independently of SwiftTalk's model).
struct APIError: Error, Decodable, Equatable {
    var error: String
    var reason: String
}
