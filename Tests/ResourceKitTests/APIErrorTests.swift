import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The API's own error body, as the fixture `error-404.json` has it.
struct APIError: Error, Decodable, Equatable {
    var error: String
    var message: String
}

/// The API's own error model: `decodingAPIErrors(as:)` and `parseAPIError`, thrown as `WebserviceError.apiError`.
@Suite struct APIErrorTests {
    @Test func unacceptableResponseThrowsTheDecodedErrorWithStatusAndBody() throws {
        let body = try fixture("error-404.json")
        let resource = Episode.all.decodingAPIErrors(as: APIError.self)
        let error = try #require(throws: WebserviceError.self) {
            try resource.value(from: body, response: httpResponse(404, headers: ["Retry-After": "5"]))
        }
        let (apiError, response) = try requireCase(\.apiError, of: error)
        let model = try #require(apiError as? APIError)
        #expect(model == APIError(error: "not_found", message: "No episode with id 42"))
        #expect(response.statusCode == 404)
        #expect(response.body.data == body)
        #expect(response.headers["Retry-After"] == "5")
        #expect(error.underlyingError as? APIError == model)
        #expect(error.statusCode == 404)
        #expect(error.body == body)
    }

    @Test func bodyInAnotherFormatFallsBackToUnacceptableStatus() throws {
        let body = Data("<html>Bad Gateway</html>".utf8)
        let resource = Episode.all.decodingAPIErrors(as: APIError.self)
        let error = try #require(throws: WebserviceError.self) {
            try resource.value(from: body, response: httpResponse(502, headers: ["Content-Type": "text/html"]))
        }
        let response = try requireCase(\.unacceptableStatus, of: error)
        #expect(response.statusCode == 502)
        #expect(response.body.data == body)
    }

    @Test func acceptableResponseNeverRunsTheErrorParse() throws {
        var resource = Episode.all
        resource.parseAPIError = { _ in
            Issue.record("parseAPIError ran for an acceptable response")
            return APIError(error: "", message: "")
        }
        #expect(try resource.value(from: fixture("episodes.json"), response: httpResponse(200)).count == 3)
    }

    @Test func errorParseIsASynchronousFunctionTestsCanCall() throws {
        let parseAPIError = try #require(Episode.all.decodingAPIErrors(as: APIError.self).parseAPIError)
        #expect(
            try parseAPIError(fixture("error-404.json")) as? APIError
                == APIError(error: "not_found", message: "No episode with id 42"))
        #expect(throws: DecodingError.self) { try parseAPIError(Data("{}".utf8)) }
    }

    @Test func mapKeepsTheErrorParse() throws {
        let count = Episode.all.decodingAPIErrors(as: APIError.self).map(\.count)
        let error = try #require(throws: WebserviceError.self) {
            try count.value(from: fixture("error-404.json"), response: httpResponse(404))
        }
        #expect(error.underlyingError is APIError)
    }

    @Test func descriptionNamesTheErrorTypeAndShowsTheBody() throws {
        let resource = Episode.all.decodingAPIErrors(as: APIError.self)
        let error = try #require(throws: WebserviceError.self) {
            try resource.value(from: fixture("error-404.json"), response: httpResponse(404))
        }
        #expect("\(error)".hasPrefix("The server answered HTTP 404 with APIError: {\"error\": \"not_found\""))
    }

    @Test func loadThrowsTheAPIErrorThroughTheTransport() async throws {
        let body = try fixture("error-404.json")
        let service = Webservice(transport: StubTransport.answering(.status(404, body: body)))
        let error = try await #require(throws: WebserviceError.self) {
            try await service.load(Episode.all.decodingAPIErrors(as: APIError.self))
        }
        #expect((error.underlyingError as? APIError)?.error == "not_found")
        #expect(error.statusCode == 404)
    }
}
