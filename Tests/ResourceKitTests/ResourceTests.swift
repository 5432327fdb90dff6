import Foundation
import ResourceKit
import Testing

/// A resource's parts and its one stored, response-aware parse: custom parses, `map`, and what a parse is given.
@Suite struct ResourceTests {
    @Test func rawResourceParseReturnsTheBytesUnchanged() throws {
        let raw = Resource<Data>(url: baseURL, method: .get, headers: [:], parse: { data in data })
        let bytes = try fixture("episodes.json")
        #expect(try raw.parse(bytes) == bytes)
        #expect(raw.url == baseURL)
        #expect(raw.method == .get)
        #expect(raw.headers.isEmpty)
    }

    @Test func partsCanBeReusedToBuildAnotherResource() throws {
        let raw = Resource<Data>(url: baseURL, method: .post(Data("x".utf8)), headers: ["X-Trace": "1"]) { $0 }
        let other = baseURL.appendingPathComponent("mirror")
        let copy = Resource(url: other, method: raw.method, headers: raw.headers, parse: raw.parse)
        #expect(copy.url == other)
        #expect(copy.method == .post(Data("x".utf8)))
        #expect(copy.headers == ["X-Trace": "1"])
        #expect(try copy.parse(Data("abc".utf8)) == Data("abc".utf8))
    }

    @Test func mapComposesParsesAndKeepsTheRequest() throws {
        var all = Episode.all
        all.timeout = 7
        let count: Resource<Int> = all.map { $0.count }
        #expect(count.timeout == 7)
        #expect(try count.parse(fixture("episodes.json")) == 3)
        #expect(count.url == Episode.all.url)
        #expect(count.method == Episode.all.method)
        #expect(count.headers == Episode.all.headers)
    }

    @Test func mapCanBeChained() throws {
        let firstTitle = Episode.all.map { $0.first }.map { $0?.title ?? "none" }
        #expect(try firstTitle.parse(fixture("episodes.json")) == "Networking")
    }

    @Test func mapSurfacesTheTransformsError() throws {
        struct NoEpisodes: Error {}
        let first = Episode.all.map { episodes in
            guard let first = episodes.first else { throw NoEpisodes() }
            return first
        }
        #expect(throws: NoEpisodes.self) { try first.parse(Data("[]".utf8)) }
    }

    @Test func mapDoesNotRunTheTransformWhenTheParseFails() throws {
        struct TransformRan: Error {}
        let mapped = Episode.all.map { (_: [Episode]) throws -> Int in throw TransformRan() }
        #expect(throws: DecodingError.self) { try mapped.parse(fixture("episodes-invalid.json")) }
        #expect(throws: TransformRan.self) { try mapped.parse(fixture("episodes.json")) }
    }

    @Test func modelExposesItsResources() throws {
        let episode = Episode(id: "7", title: "Seven")
        #expect(episode.media.url.absoluteString == "https://api.example.com/episodes/7/media")
        let media = try episode.media.parse(fixture("media.json"))
        #expect(media == Media(episodeID: "1", videoURL: URL(string: "https://videos.example.com/1.mp4")!))
    }

    // MARK: The response-aware parse

    private static let text = Resource<String>(
        url: baseURL,
        parse: { data, response in
            let charset = response?.value(forHTTPHeaderField: "Content-Type")?.contains("latin1") == true
            return String(data: data, encoding: charset ? .isoLatin1 : .utf8) ?? "?"
        })

    @Test func loadingPassesTheResponseToTheParse() throws {
        let response = try httpResponse(200, headers: ["Content-Type": "text/plain; charset=latin1"])
        #expect(try Self.text.value(from: Data([0x63, 0x61, 0x66, 0xE9]), response: response) == "café")
    }

    @Test func parseWithoutAResponseGetsNil() throws {
        #expect(try Self.text.parse(Data("café".utf8)) == "café")
    }

    @Test func settingParseReplacesTheParse() throws {
        var resource = Self.text
        resource.parse = { _, response in "replaced, \(response?.statusCode ?? 0)" }
        let response = try httpResponse(200, headers: ["Content-Type": "text/plain; charset=latin1"])
        #expect(try resource.value(from: Data(), response: response) == "replaced, 200")
    }

    @Test func mapPassesTheResponseThrough() throws {
        let response = try httpResponse(200, headers: ["Content-Type": "text/plain; charset=latin1"])
        #expect(try Self.text.map(\.count).value(from: Data([0x63, 0x61, 0x66, 0xE9]), response: response) == 4)
    }
}
