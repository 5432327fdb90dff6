import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

/// A resource's whole parse against a fixture file, synchronously.
@Suite struct FixtureTests {
    private struct Episode: Decodable, Equatable {
        var id: String
    }

    private let all = Resource<[Episode]>(get: URL(string: "https://api.example.com/episodes")!)

    private func withFixture(_ text: String, _ body: (URL) throws -> Void) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        try body(url)
    }

    @Test func theFixtureIsParsedAsTheResponseBody() throws {
        try withFixture(#"[{"id":"1"},{"id":"2"}]"#) { (url: URL) throws in
            #expect(try all.value(fromFixture: url) == [Episode(id: "1"), Episode(id: "2")])
        }
    }

    @Test func theStatusIsCheckedAsALoadWould() throws {
        try withFixture(#"{"error":"gone"}"#) { (url: URL) throws in
            let error = try #require(throws: WebserviceError.self) { try all.value(fromFixture: url, status: 410) }
            #expect(error.statusCode == 410)
            #expect(error.body == Data(#"{"error":"gone"}"#.utf8))
        }
    }

    @Test func aMissingFixtureIsAnError() {
        #expect(throws: (any Error).self) {
            try all.value(fromFixture: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).json"))
        }
    }
}
