// Generated from Sources/ResourceKit/ResourceKit.docc/TestingParses.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// TestingParses.md:20, block 1
import Foundation
import ResourceKit
import Testing

@Test private func parsesEpisodes() throws {
    let json = Data(#"[{"id": "1", "title": "Networking"}]"#.utf8)
    #expect(try Episode.all.parse(json) == [Episode(id: "1", title: "Networking")])
}

@Test private func rejectsAnEpisodeWithoutTitle() {
    #expect(throws: DecodingError.self) { try Episode.all.parse(Data(#"[{"id": "1"}]"#.utf8)) }
}

// TestingParses.md:40, block 2
@Test private func parsesEpisodesFixture() throws {
    let url = try #require(Bundle.module.url(forResource: "episodes", withExtension: "json", subdirectory: "Fixtures"))
    #expect(try !Episode.all.value(fromFixture: url).isEmpty)
}

// TestingParses.md:49, block 3
@Test private func textUsesTheResponsesCharset() throws {
    let terms = Resource<String>(url: baseURL, textEncoding: .utf8)
    let latin1 = ["Content-Type": "text/plain; charset=ISO-8859-1"]
    let response = HTTPURLResponse(url: baseURL, statusCode: 200, httpVersion: nil, headerFields: latin1)
    #expect(try terms.parse(Data([0x63, 0x61, 0x66, 0xE9]), response) == "café")
}

// TestingParses.md:63, block 4
@Test private func notFoundKeepsStatusAndBody() throws {
    let body = Data(#"{"error": "not found"}"#.utf8)
    let response = try #require(HTTPURLResponse(url: baseURL, statusCode: 404, httpVersion: nil, headerFields: nil))
    let error = try #require(throws: WebserviceError.self) { try Episode.all.value(from: body, response: response) }
    #expect(error.statusCode == 404)
    #expect(error.body == body)
}

@Test private func wrapsParseErrors() throws {
    let response = try #require(HTTPURLResponse(url: baseURL, statusCode: 200, httpVersion: nil, headerFields: nil))
    let error = try #require(throws: WebserviceError.self) {
        try Episode.all.value(from: Data("{}".utf8), response: response)
    }
    #expect(error.underlyingError is DecodingError)
}

// TestingParses.md:86, block 5
@Test private func createsEpisodes() throws {
    let episode = Episode(id: "42", title: "Networking")
    let create = try Resource<Episode>(url: baseURL.appendingPathComponent("episodes"), method: .post(episode))
    let request = URLRequest(resource: create)
    #expect(request.httpMethod == "POST")
    #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    #expect(try JSONDecoder().decode(Episode.self, from: #require(request.httpBody)) == episode)
}

// TestingParses.md:104, block 6
import ResourceKitTesting

@Test private func loadsThroughAStub() async throws {
    let stub = StubTransport([.init("GET", "/episodes", .json(#"[{"id": "1", "title": "Networking"}]"#))])
    #expect(try await Webservice(transport: stub).load(Episode.all).map(\.title) == ["Networking"])
}

// TestingParses.md:118, block 7
private struct FixtureLoader: ResourceLoading {
    var body: Data
    func load<A>(_ resource: Resource<A>) async throws -> A {
        // A response too, for a resource that reads one, such as `withResponse`'s.
        let response = HTTPURLResponse(url: resource.url, statusCode: 200, httpVersion: nil, headerFields: nil)!
        return try resource.value(from: body, response: response)
    }
}

@Test @MainActor private func podcastListShowsTheNames() async throws {
    let list = PodcastList(loader: FixtureLoader(body: Data(#"[{"id": 1, "name": "Swift Talk"}]"#.utf8)))
    try await list.refresh()
    #expect(list.names == ["Swift Talk"])
}
