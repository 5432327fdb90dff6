import Foundation
import HTTPTypes
import OpenAPIRuntime
import ResourceKit
import ResourceKitOpenAPI
import ResourceKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How `Webservice`'s `send(_:body:baseURL:operationID:)` turns a generated client's request into the one it sends,
/// and the response into the client's, checked against a stub transport.
@Suite struct WebserviceClientTransportTests {
    @Test(arguments: ["https://api.example.com/v1", "https://api.example.com/v1/"])
    func thePathAndQueryFollowTheServerURLsPathAsEncoded(serverURL: String) async throws {
        let stub = StubTransport([.init("GET", "/v1/episodes/*", .status(200))])
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/episodes/a%20b%2Fc?q=x%26y&n=1")
        _ = try await Webservice(transport: stub).send(
            request, body: nil, baseURL: try #require(URL(string: serverURL)), operationID: "getEpisode")
        let sent = try #require(await stub.requests.first?.url)
        #expect(sent.absoluteString == "https://api.example.com/v1/episodes/a%20b%2Fc?q=x%26y&n=1")
    }

    /// A path is appended to the server URL's path as it is, even one that starts with `//`, which read as a URL
    /// would name the host `users`; one that isn't a percent-encoded path is refused before anything is sent.
    @Test(arguments: [
        ("https://api.example.com/api", "//users/42", "https://api.example.com/api//users/42"),
        ("https://api.example.com/api/", "//users/42", "https://api.example.com/api//users/42"),
        ("https://api.example.com", "//users/42?a=%2F", "https://api.example.com//users/42?a=%2F"),
        (
            "https://api.example.com/api", "/a%2F:@!$&'()*+,;=-._~b",
            "https://api.example.com/api/a%2F:@!$&'()*+,;=-._~b"
        ),
        ("https://api.example.com/api", "/a b", nil), ("https://api.example.com/api", "/a%2", nil),
        ("https://api.example.com/api", "/a#b", nil), ("https://api.example.com/api", "/caf\u{E9}", nil),
    ])
    func thePathIsAppendedToTheServerURLsPathAsItIs(serverURL: String, path: String, sent: String?) async throws {
        let stub = StubTransport([.init("*", "/**", .status(204))])
        let request = HTTPRequest(method: .delete, scheme: nil, authority: nil, path: path)
        let send = {
            try await Webservice(transport: stub).send(
                request, body: nil, baseURL: try #require(URL(string: serverURL)), operationID: "deleteUser")
        }
        if let sent {
            _ = try await send()
            #expect(await stub.requests.first?.url.absoluteString == sent)
        } else {
            let error = try await #require(throws: WebserviceError.self) { try await send() }
            #expect(error.encoding != nil)
            #expect(await stub.requests.isEmpty)
        }
    }

    @Test func repeatedFieldsAreJoinedAsHTTPJoinsThem() async throws {
        let stub = StubTransport([.init("GET", "/episodes", .status(200))])
        var fields = HTTPFields()
        fields.append(HTTPField(name: .accept, value: "application/json"))
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: .accept, value: "text/plain"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/episodes", headerFields: fields)
        _ = try await Webservice(transport: stub).send(
            request, body: nil, baseURL: URL(string: "https://api.example.com")!, operationID: "listEpisodes")
        let sent = try #require(await stub.requests.first)
        #expect(sent.value(forHTTPHeaderField: "Accept") == "application/json, text/plain")
        #expect(sent.value(forHTTPHeaderField: "Cookie") == "a=1; b=2")
    }

    @Test func theBodyIsSentWholeWithItsMethod() async throws {
        let stub = StubTransport([.init("PATCH", "/episodes/1", .status(200))])
        let body = HTTPBody(
            AsyncStream { continuation in
                for chunk in [#"{"title":"#, #""Renamed"}"#] { continuation.yield(ArraySlice(chunk.utf8)) }
                continuation.finish()
            }, length: .unknown)
        let request = HTTPRequest(method: .patch, scheme: nil, authority: nil, path: "/episodes/1")
        _ = try await Webservice(transport: stub).send(
            request, body: body, baseURL: URL(string: "https://api.example.com")!, operationID: "updateEpisode")
        let sent = try #require(await stub.requests.first)
        #expect(sent.method == "PATCH")
        #expect(sent.bodyBytes == Data(#"{"title":"Renamed"}"#.utf8))
    }

    @Test(arguments: [200, 304, 404, 503])
    func everyStatusIsAnsweredWithItsFieldsAndBody(status: Int) async throws {
        let stub = StubTransport([
            .init("GET", "/episodes", .status(status, headers: ["X-Request-ID": "7"], body: Data("body".utf8)))
        ])
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/episodes")
        let (response, body) = try await Webservice(transport: stub).send(
            request, body: nil, baseURL: URL(string: "https://api.example.com")!, operationID: "listEpisodes")
        #expect(response.status.code == status)
        #expect(response.headerFields[HTTPField.Name("X-Request-ID")!] == "7")
        #expect(try await String(collecting: try #require(body), upTo: 100) == "body")
    }

    @Test func aResponseFieldNameHTTPTypesRejectsIsLeftOut() async throws {
        let stub = StubTransport([.init("GET", "/episodes", .status(200, headers: ["Bad Name": "1", "X-Good": "2"]))])
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/episodes")
        let (response, _) = try await Webservice(transport: stub).send(
            request, body: nil, baseURL: URL(string: "https://api.example.com")!, operationID: "listEpisodes")
        #expect(response.headerFields[HTTPField.Name("X-Good")!] == "2")
        #expect(!response.headerFields.contains { $0.name.rawName.utf8.contains(UInt8(ascii: " ")) })
    }

    @Test(arguments: [(HTTPRequest.Method.head, false), (.options, false), (.get, true), (.delete, true)])
    func aRequestResourceKitCantSendFailsBeforeItIsSent(method: HTTPRequest.Method, hasBody: Bool) async throws {
        let stub = StubTransport([.init("*", "/episodes", .status(200))])
        let request = HTTPRequest(method: method, scheme: nil, authority: nil, path: "/episodes")
        let error = try await #require(throws: WebserviceError.self) {
            try await Webservice(transport: stub).send(
                request, body: hasBody ? HTTPBody("x") : nil, baseURL: URL(string: "https://api.example.com")!,
                operationID: "op")
        }
        #expect(error.encoding != nil)
        #expect(await stub.requests.isEmpty)
    }
}
