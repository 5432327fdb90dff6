import Foundation
import ResourceKit
import Testing

/// Settings as the fixtures `settings.plist` (XML) and `settings-binary.plist` have them.
private struct Settings: Codable, Equatable {
    var volume: Double
    var muted: Bool
    var tags: [String]
    var updated: Date
}

private let settingsURL = baseURL.appendingPathComponent("settings")
private let settings = Resource<Settings>(url: settingsURL, propertyListDecoder: PropertyListDecoder())
private let expected = Settings(
    volume: 0.75, muted: false, tags: ["swift", "networking"], updated: Date(timeIntervalSince1970: 1_714_564_800))

@Suite struct ResourcePropertyListTests {
    @Test(arguments: ["settings.plist", "settings-binary.plist"])
    func xmlAndBinaryPropertyListsDecode(fixtureName: String) throws {
        #expect(try settings.parse(fixture(fixtureName)) == expected)
    }

    @Test func asksForAPropertyListAndKeepsTheCallersAccept() {
        #expect(settings.method == .get)
        #expect(settings.url == settingsURL)
        #expect(settings.headers == ["Accept": "application/x-plist"])
        let custom = Resource<Settings>(
            url: settingsURL, headers: ["accept": "*/*"], propertyListDecoder: PropertyListDecoder())
        #expect(custom.headers == ["accept": "*/*"])
    }

    @Test func jsonIsNotAPropertyList() throws {
        let json = Data(#"{"volume": 0.75, "muted": false, "tags": [], "updated": 0}"#.utf8)
        _ = try JSONDecoder().decode(Settings.self, from: json)
        #expect(throws: DecodingError.self) { try settings.parse(json) }
    }

    @Test func missingKeyThrowsKeyNotFound() throws {
        let error = try #require(throws: DecodingError.self) {
            try settings.parse(fixture("settings-missing-volume.plist"))
        }
        #expect(try requireCase(\.keyNotFound, of: error).key.stringValue == "volume")
    }

    @Test func encodedBodyIsSentAsAPropertyList() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let body = try encoder.encode(expected)
        let save = Resource<Settings>(url: settingsURL, method: .put(body), propertyListDecoder: PropertyListDecoder())
        #expect(save.method == .put(body))
        #expect(save.headers == ["Accept": "application/x-plist", "Content-Type": "application/x-plist"])
        #expect(try PropertyListDecoder().decode(Settings.self, from: body) == expected)
        #expect(try save.value(from: fixture("settings.plist"), response: httpResponse(200)) == expected)
        let delete = Resource<Settings>(url: settingsURL, method: .delete, propertyListDecoder: PropertyListDecoder())
        #expect(delete.headers == ["Accept": "application/x-plist"])
    }
}
