import Foundation
import ResourceKit
import Testing

/// A model built the seed's way, from a JSON dictionary.
private struct City: Equatable {
    var name: String
    var population: Int

    init(name: String, population: Int) {
        self.name = name
        self.population = population
    }

    init?(json: [String: Any]) {
        guard let name = json["name"] as? String, let population = json["population"] as? Int else { return nil }
        self.init(name: name, population: population)
    }
}

private let cities = Resource<[City]>(
    url: baseURL.appendingPathComponent("cities"),
    parseJSON: { json in
        guard let dictionaries = json as? [[String: Any]] else { return nil }
        var cities: [City] = []
        for dictionary in dictionaries {
            guard let city = City(json: dictionary) else { return nil }
            cities.append(city)
        }
        return cities
    })

@Suite struct ResourceJSONTests {
    @Test func validJSONParsesIntoTheModel() throws {
        let body = Data(#"[{"name": "Berlin", "population": 3645000}, {"name": "Oslo", "population": 709000}]"#.utf8)
        #expect(
            try cities.parse(body) == [
                City(name: "Berlin", population: 3_645_000), City(name: "Oslo", population: 709_000),
            ])
    }

    @Test func parseJSONReceivesTheSerializedValue() throws {
        let titles = Resource<[String]>(
            url: baseURL,
            parseJSON: { json in
                (json as? [[String: Any]])?.compactMap { $0["title"] as? String }
            })
        #expect(
            try titles.parse(fixture("episodes.json")) == [
                "Networking", "Networking: POST Requests", "Loading View Controllers",
            ])
    }

    @Test func topLevelFragmentsAreAccepted() throws {
        let number = Resource<Int>(url: baseURL, parseJSON: { $0 as? Int })
        #expect(try number.parse(Data("42".utf8)) == 42)
    }

    @Test func invalidJSONThrowsInvalidJSON() throws {
        let error = try #require(throws: DecodingError.self) {
            try cities.parse(fixture("episodes-invalid.json"))
        }
        let context = try requireCase(\.dataCorrupted, of: error)
        #expect(context.debugDescription.hasPrefix("The body is not valid JSON: "))
        #expect(!context.debugDescription.contains("NSCocoaErrorDomain"), "the description is readable: \(error)")
        #expect(context.underlyingError != nil, "JSONSerialization's error is kept")
    }

    @Test func emptyBodyThrowsInvalidJSON() throws {
        let error = try #require(throws: DecodingError.self) { try cities.parse(fixture("empty.json")) }
        _ = try requireCase(\.dataCorrupted, of: error)
    }

    @Test(arguments: [
        (#"{"name": "Berlin"}"#, "object"),
        (#"[{"name": "Berlin"}]"#, "array"),
        (#""Berlin""#, "string"),
        ("null", "null"),
        ("12", "number or boolean"),
        ("true", "number or boolean"),
    ])
    func wrongShapeThrowsUnexpectedShapeNamingWhatArrived(json: String, found: String) throws {
        let error = try #require(throws: DecodingError.self) { try cities.parse(Data(json.utf8)) }
        let (type, context) = try requireCase(\.typeMismatch, of: error)
        #expect("\(type)".contains("City"))
        #expect(context.debugDescription.hasSuffix("found a top-level \(found)."))
    }

    @Test func errorsFromTheClosurePassThrough() {
        struct Rejected: Error {}
        let rejecting = Resource<Int>(url: baseURL, parseJSON: { _ in throw Rejected() })
        #expect(throws: Rejected.self) { try rejecting.parse(Data("1".utf8)) }
    }

    @Test func requestsJSONAndLabelsABody() {
        #expect(cities.headers == ["Accept": "application/json"])
        let post = Resource<Int>(url: baseURL, method: .post(Data("{}".utf8)), parseJSON: { $0 as? Int })
        #expect(post.headers == ["Accept": "application/json", "Content-Type": "application/json"])
    }

    @Test func headersTheCallerNamedAreKeptInAnyLetterCase() {
        let resource = Resource<Int>(
            url: baseURL,
            method: .put(Data()),
            headers: ["accept": "application/vnd.api+json", "CONTENT-TYPE": "text/plain", "X-Trace": "1"],
            parseJSON: { $0 as? Int }
        )
        #expect(
            resource.headers == ["accept": "application/vnd.api+json", "CONTENT-TYPE": "text/plain", "X-Trace": "1"])
    }
}
