import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct ResponseValidationTests {
    @Test(arguments: [200, 201, 203, 299])
    func successStatusParsesTheBody(statusCode: Int) throws {
        let episodes = try Episode.all.value(from: fixture("episodes.json"), response: httpResponse(statusCode))
        #expect(episodes.count == 3)
    }

    @Test(arguments: [100, 199, 300, 304, 400, 401, 404, 500, 503])
    func statusOutside2xxIsUnacceptable(statusCode: Int) throws {
        let body = try fixture("error-404.json")
        let error = try #require(throws: WebserviceError.self) {
            try Episode.all.value(from: body, response: httpResponse(statusCode, headers: ["Retry-After": "5"]))
        }
        guard case .unacceptableStatus(statusCode, let headers, body) = error else {
            Issue.record("expected unacceptableStatus(\(statusCode)), got \(error)")
            return
        }
        #expect(headers["Retry-After"] == "5")
        #expect(error.statusCode == statusCode)
        #expect(error.body == body)
    }

    @Test func notFoundCarriesStatusAndBody() throws {
        let body = try fixture("error-404.json")
        let error = try #require(throws: WebserviceError.self) {
            try Episode.all.value(from: body, response: httpResponse(404))
        }
        #expect(error.statusCode == 404)
        #expect(error.body == body)
        #expect(error.headers?["Content-Type"] == "application/json")
        #expect(error.underlyingError == nil)
    }

    @Test func unacceptableStatusDoesNotRunTheParse() throws {
        struct ParseRan: Error {}
        let resource = Resource<Int>(url: baseURL, parse: { _ in throw ParseRan() })
        let error = try #require(throws: WebserviceError.self) {
            try resource.value(from: Data(), response: httpResponse(500))
        }
        guard case .unacceptableStatus(500, _, _) = error else {
            Issue.record("expected unacceptableStatus(500), got \(error)")
            return
        }
    }

    @Test func parseFailureKeepsTheDecodingErrorAndTheResponse() throws {
        let body = try fixture("episodes-missing-title.json")
        let error = try #require(throws: WebserviceError.self) {
            try Episode.all.value(from: body, response: httpResponse(200))
        }
        guard case .parsing(let underlying, 200, let headers, body) = error else {
            Issue.record("expected parsing, got \(error)")
            return
        }
        let decodingError = try #require(underlying as? DecodingError)
        guard case .keyNotFound(let key, let context) = decodingError else {
            Issue.record("expected keyNotFound, got \(decodingError)")
            return
        }
        #expect(key.stringValue == "title")
        #expect(context.codingPath.map(\.intValue) == [1])
        #expect(headers["Content-Type"] == "application/json")
        #expect(error.statusCode == 200)
        #expect(error.body == body)
    }

    @Test func emptyBodyWithSuccessIsAParseErrorNotAnEmptyValue() throws {
        let error = try #require(throws: WebserviceError.self) {
            try Episode.all.value(from: fixture("empty.json"), response: httpResponse(200))
        }
        guard case .parsing(_ as DecodingError, 200, _, let body) = error else {
            Issue.record("expected parsing with a DecodingError, got \(error)")
            return
        }
        #expect(body.isEmpty)
    }

    @Test func nonHTTPResponseIsRejectedWithItsBody() throws {
        let body = Data("plain".utf8)
        let response = URLResponse(
            url: baseURL, mimeType: "text/plain", expectedContentLength: 5, textEncodingName: nil)
        let error = try #require(throws: WebserviceError.self) { try Episode.all.value(from: body, response: response) }
        guard case .nonHTTPResponse(body) = error else {
            Issue.record("expected nonHTTPResponse, got \(error)")
            return
        }
        #expect(error.body == body)
        #expect(error.statusCode == nil)
    }
}

@Suite struct AcceptableStatusCodesTests {
    @Test(arguments: [200, 204, 302, 304, 399])
    func widerRangeAcceptsRedirectionStatuses(statusCode: Int) throws {
        var resource = Resource<Data>(url: baseURL, parse: { $0 })
        resource.acceptableStatusCodes = 200..<400
        #expect(try resource.value(from: Data("x".utf8), response: httpResponse(statusCode)) == Data("x".utf8))
    }

    @Test(arguments: [201, 204, 400])
    func narrowerRangeRejectsOtherSuccessStatuses(statusCode: Int) throws {
        var resource = Episode.all
        resource.acceptableStatusCodes = 200..<201
        let error = try #require(throws: WebserviceError.self) {
            try resource.value(from: fixture("episodes.json"), response: httpResponse(statusCode))
        }
        #expect(error.statusCode == statusCode)
        #expect(error.underlyingError == nil)
    }

    @Test func defaultIsEvery2xxStatus() {
        #expect(Episode.all.acceptableStatusCodes == 200..<300)
        #expect(Resource<Data>(url: baseURL, parse: { $0 }).acceptableStatusCodes == 200..<300)
    }
}
