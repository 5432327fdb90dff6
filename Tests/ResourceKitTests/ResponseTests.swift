import Foundation
import Testing

@testable import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response as a transport hands it over: `Retry-After` twice, in the order it arrived.
private func listed(_ statusCode: Int) -> Response {
    Response(
        statusCode: statusCode,
        fields: [
            .init(name: "Retry-After", value: "5"), .init(name: "X-Trace", value: "a"),
            .init(name: "x-trace", value: "b"),
        ], body: Data(),
        url: baseURL)
}

/// One response value from the transport to the parse; an `HTTPURLResponse` only for a parse that reads one.
@Suite struct ResponseTests {
    @Test func parseOfTheBodyAloneAsksForNoResponse() throws {
        let resource = Resource<Int>(url: baseURL, parse: { $0.count })
        #expect(!resource.parseReadsResponse)
        #expect(!resource.map { $0 * 2 }.parseReadsResponse)
        var response = listed(200)
        response.body = Data("abc".utf8)
        #expect(try resource.value(from: response) == 3)
    }

    @Test func parseThatTakesTheResponseGetsItsFields() throws {
        let resource = Resource<String?>(
            url: baseURL,
            parse: { _, response in
                response.map { "\($0.statusCode) \($0.value(forHTTPHeaderField: "X-Trace") ?? "-")" }
            })
        #expect(resource.parseReadsResponse)
        #expect(try resource.value(from: listed(201)) == "201 a, b")
    }

    @Test func parseAssignedLaterGetsTheResponse() throws {
        var resource = Resource<Int>(url: baseURL, parse: { _ in 0 })
        resource.parse = { _, response in response?.statusCode ?? -1 }
        #expect(try resource.value(from: listed(200)) == 200)
    }

    @Test func fieldsMatchInAnyCaseAndRepeatsJoinInOrder() throws {
        let response = listed(200)
        #expect(response.value(forHTTPHeaderField: "X-TRACE") == "a, b")
        #expect(response.value(forHTTPHeaderField: "Missing") == nil)
        #expect(response.headers["Retry-After"] == "5")
        let native = Response(try httpResponse(200, headers: ["X-Trace": "c"]), body: Data())
        #expect(native.value(forHTTPHeaderField: "x-trace") == "c")
        #expect(native.httpURLResponse()?.value(forHTTPHeaderField: "X-Trace") == "c")
    }

    @Test func errorsCarryTheResponse() throws {
        struct Unparsable: Error {}
        let resource = Resource<Int>(url: baseURL, parse: { _ in throw Unparsable() })
        let unacceptable = try #require(throws: WebserviceError.self) { try resource.value(from: listed(503)) }
        #expect(try requireCase(\WebserviceError.unacceptableStatus, of: unacceptable).headers["Retry-After"] == "5")
        let unparsed = try #require(throws: WebserviceError.self) { try resource.value(from: listed(200)) }
        #expect(
            try requireCase(\WebserviceError.parsing, of: unparsed).response.value(forHTTPHeaderField: "x-trace")
                == "a, b")
    }

    @Test func responseThatIsNotHTTPIsRefused() throws {
        let response = URLResponse(url: baseURL, mimeType: nil, expectedContentLength: 1, textEncodingName: nil)
        let error = try #require(throws: WebserviceError.self) {
            try Resource<Int>(url: baseURL, parse: { $0.count }).value(from: Data("a".utf8), response: response)
        }
        #expect(try requireCase(\.nonHTTPResponse, of: error) == Data("a".utf8))
    }
}
