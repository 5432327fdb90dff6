import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `value(from:response:)`, what `load` does once the bytes arrive: the status is checked, then the body parsed.
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
        let response = try requireCase(\.unacceptableStatus, of: error)
        #expect(response.statusCode == statusCode)
        #expect(response.body.data == body)
        #expect(response.headers["Retry-After"] == "5")
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
        #expect(error.response?.headers["Content-Type"] == "application/json")
        #expect(error.underlyingError == nil)
    }

    @Test func unacceptableStatusDoesNotRunTheParse() throws {
        struct ParseRan: Error {}
        let resource = Resource<Int>(url: baseURL, parse: { _ in throw ParseRan() })
        let error = try #require(throws: WebserviceError.self) {
            try resource.value(from: Data(), response: httpResponse(500))
        }
        #expect(try requireCase(\.unacceptableStatus, of: error).statusCode == 500)
    }

    @Test func parseFailureKeepsTheDecodingErrorAndTheResponse() throws {
        let body = try fixture("episodes-missing-title.json")
        let error = try #require(throws: WebserviceError.self) {
            try Episode.all.value(from: body, response: httpResponse(200))
        }
        let (underlying, response) = try requireCase(\.parsing, of: error)
        let (key, context) = try requireCase(\.keyNotFound, of: underlying as? DecodingError)
        #expect(key.stringValue == "title")
        #expect(context.codingPath.map(\.intValue) == [1])
        #expect(response.statusCode == 200)
        #expect(response.body.data == body)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(error.statusCode == 200)
        #expect(error.body == body)
    }

    @Test func emptyBodyWithSuccessIsAParseErrorNotAnEmptyValue() throws {
        let error = try #require(throws: WebserviceError.self) {
            try Episode.all.value(from: fixture("empty.json"), response: httpResponse(200))
        }
        let (underlying, response) = try requireCase(\.parsing, of: error)
        #expect(underlying is DecodingError)
        #expect(response.statusCode == 200)
        #expect(response.body.data?.isEmpty == true)
    }

    @Test func nonHTTPResponseIsRejectedWithItsBody() throws {
        let body = Data("plain".utf8)
        let response = URLResponse(
            url: baseURL, mimeType: "text/plain", expectedContentLength: 5, textEncodingName: nil)
        let error = try #require(throws: WebserviceError.self) { try Episode.all.value(from: body, response: response) }
        #expect(try requireCase(\.nonHTTPResponse, of: error) == body)
        #expect(error.body == body)
        #expect(error.statusCode == nil)
    }
}

/// A resource's `acceptableStatusCodes`, wider or narrower than every 2xx status.
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
        for resource in [Episode.all.map { _ in Data() }, Resource<Data>(url: baseURL, parse: { $0 })] {
            #expect((100..<600).filter(resource.acceptableStatusCodes.contains) == Array(200..<300))
        }
    }

    /// `[200, 304]`, `200...299` and a `Set` say the same as a range, each as it is written.
    @Test(arguments: [
        ([200, 304] as any StatusCodeSet, [200, 304]),
        (200...299 as any StatusCodeSet, Array(200...299)),
        (Set([204, 409]) as any StatusCodeSet, [204, 409]),
        (200..<201 as any StatusCodeSet, [200]),
        (500... as any StatusCodeSet, Array(500..<600)),
        (...199 as any StatusCodeSet, Array(100...199)),
    ])
    func anySetOfCodesIsAcceptedAndNothingElse(codes: any StatusCodeSet, accepted: [Int]) throws {
        var resource = Resource<Data>(url: baseURL, parse: { $0 })
        resource.acceptableStatusCodes = codes
        for statusCode in 100..<600 {
            let result = Result { try resource.value(from: Data("x".utf8), response: httpResponse(statusCode)) }
            #expect((try? result.get()) != nil ? accepted.contains(statusCode) : !accepted.contains(statusCode))
        }
        // The spellings compile as they are written.
        resource.acceptableStatusCodes = [200, 304]
        resource.acceptableStatusCodes = 200...299
        resource.acceptableStatusCodes = 200..<300
        #expect(resource.map { $0 }.acceptableStatusCodes.contains(299))
    }
}
