import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A body given as a value, to the JSON `Decodable` initializer (with or without a coding path) and the `Void` one:
/// JSON-encoded with JSON header fields; as `Data`, sent as it is; as a `RequestBody` form, its own bytes with its own
/// `Content-Type`.
@Suite struct RequestBodyTests {
    /// The initializers that take a body as a value, each made into a resource whose parse is left out.
    enum Initializer: String, CaseIterable {
        case decodable, decodableAtAPath, void

        func resource(
            _ method: HTTPMethod<any Encodable & Sendable>,
            headers: [String: String] = [:],
            encoder: JSONEncoder = JSONEncoder()
        ) throws(WebserviceError) -> Resource<Void> {
            switch self {
            case .decodable:
                try Resource<Episode>(url: baseURL, method: method, headers: headers, encoder: encoder).map { _ in }
            case .decodableAtAPath:
                try Resource<Episode>(url: baseURL, method: method, at: ["data"], headers: headers, encoder: encoder)
                    .map { _ in }
            case .void:
                try Resource<Void>(url: baseURL, method: method, headers: headers, encoder: encoder)
            }
        }
    }

    static let episode = Episode(id: "4", title: "New")
    static let methods: [HTTPMethod<any Encodable & Sendable>] = [.post(episode), .put(episode), .patch(episode)]

    @Test(arguments: Initializer.allCases, methods)
    func encodableBodyIsSentAsJSON(initializer: Initializer, method: HTTPMethod<any Encodable & Sendable>) throws {
        let resource = try initializer.resource(method, headers: ["Authorization": "Bearer t"])
        #expect(
            resource.headers == [
                "Authorization": "Bearer t", "Content-Type": "application/json", "Accept": "application/json",
            ])
        let request = URLRequest(resource: resource)
        #expect(request.httpMethod == method.name)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        let body = try #require(request.httpBody)
        #expect(try JSONDecoder().decode(Episode.self, from: body) == Self.episode)
    }

    @Test(arguments: Initializer.allCases)
    func encodableBodyUsesTheGivenEncoderAndKeepsTheCallersContentType(initializer: Initializer) throws {
        struct Rename: Encodable { var newTitle: String }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let rename = try initializer.resource(
            .patch(Rename(newTitle: "t")), headers: ["content-type": "application/merge-patch+json"], encoder: encoder)
        #expect(rename.method.body == Data(#"{"new_title":"t"}"#.utf8))
        #expect(rename.headers == ["content-type": "application/merge-patch+json", "Accept": "application/json"])
    }

    @Test(arguments: Initializer.allCases)
    func encodingFailureThrowsEncodingErrorInsteadOfCrashing(initializer: Initializer) throws {
        struct Reading: Encodable { var value: Double }
        let error = try #require(throws: WebserviceError.self) { try initializer.resource(.post(Reading(value: .nan))) }
        #expect(try requireCase(\.encoding, of: error) is EncodingError)
        #expect(error.statusCode == nil)
        #expect(error.body == nil)
    }

    /// A `Data` body is sent as it is; a `Decodable` resource still asks for and labels JSON, a `Void` one adds nothing.
    @Test(arguments: [
        (Initializer.decodable, ["Content-Type": "application/json", "Accept": "application/json"]),
        (.decodableAtAPath, ["Content-Type": "application/json", "Accept": "application/json"]),
        (.void, [:]),
    ])
    func dataBodyIsSentUnchangedNotReEncoded(initializer: Initializer, headers: [String: String]) throws {
        let bytes = Data("a=1&b=2".utf8)
        let post = try initializer.resource(.post(bytes))
        #expect(post.method == .post(bytes))
        #expect(post.headers == headers)
    }

    @Test(arguments: Initializer.allCases)
    func bodilessMethodsSendNoBodyAndNoContentType(initializer: Initializer) throws {
        for method: HTTPMethod<any Encodable & Sendable> in [.get, .delete] {
            let resource = try initializer.resource(method)
            #expect(resource.method.name == method.name)
            #expect(resource.method.body == nil)
            #expect(resource.headers["Content-Type"] == nil)
        }
    }

    @Test(arguments: Initializer.allCases)
    func formBodyIsSentAsItsOwnBytesWithItsContentTypeNotAsJSON(initializer: Initializer) throws {
        let fields = [URLQueryItem(name: "q", value: "C++ & Swift"), URLQueryItem(name: "all", value: nil)]
        let search = try initializer.resource(.post(.urlEncoded(fields)))
        #expect(search.method == .post(Data("q=C%2B%2B%20%26%20Swift&all".utf8)))
        #expect(search.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(search.headers["Accept"] == (initializer == .void ? nil : "application/json"))
        let upload = try initializer.resource(.put(.multipart([.field("title", "Hi")])))
        #expect(upload.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=ResourceKit-") == true)
        #expect(String(decoding: try #require(upload.method.body), as: UTF8.self).contains("\r\n\r\nHi\r\n"))
    }

    @Test(arguments: Initializer.allCases)
    func formBodyKeepsTheCallersContentType(initializer: Initializer) throws {
        let resource = try initializer.resource(
            .post(.urlEncoded([URLQueryItem(name: "a", value: "1")])),
            headers: ["content-type": "application/x-www-form-urlencoded; charset=utf-8"])
        #expect(resource.headers["content-type"] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(resource.headers["Content-Type"] == nil)
    }

    @Test(arguments: Initializer.allCases)
    func formBodyInsideAnotherValueIsAnEncodingErrorNotJSON(initializer: Initializer) throws {
        let error = try #require(throws: WebserviceError.self) {
            try initializer.resource(.post(["form": RequestBody.urlEncoded([])]))
        }
        let encoding = try #require(try requireCase(\.encoding, of: error) as? EncodingError)
        guard case .invalidValue(_, let context) = encoding else {
            Issue.record("Expected EncodingError.invalidValue, got \(encoding)")
            return
        }
        #expect(context.debugDescription.contains("never JSON-encoded"))
        #expect(context.codingPath.map(\.stringValue) == ["form"])
    }
}
