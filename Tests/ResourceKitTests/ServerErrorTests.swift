import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The API's own error body, as the fixture `error-404.json` has it.
struct APIError: Error, Decodable, Equatable {
    var error: String
    var message: String
}

@Suite struct ServerErrorTests {
    @Test func unacceptableResponseThrowsTheDecodedErrorWithStatusAndBody() throws {
        let body = try fixture("error-404.json")
        let resource = Episode.all.decodingErrors(as: APIError.self)
        let error = try #require(throws: WebserviceError.self) {
            try resource.value(from: body, response: httpResponse(404, headers: ["Retry-After": "5"]))
        }
        guard case .serverError(let model as APIError, 404, let headers, body) = error else {
            Issue.record("expected serverError(APIError, 404), got \(error)")
            return
        }
        #expect(model == APIError(error: "not_found", message: "No episode with id 42"))
        #expect(headers["Retry-After"] == "5")
        #expect(error.underlyingError as? APIError == model)
        #expect(error.statusCode == 404)
        #expect(error.body == body)
    }

    @Test func bodyInAnotherFormatFallsBackToUnacceptableStatus() throws {
        let body = Data("<html>Bad Gateway</html>".utf8)
        let resource = Episode.all.decodingErrors(as: APIError.self)
        let error = try #require(throws: WebserviceError.self) {
            try resource.value(from: body, response: httpResponse(502, headers: ["Content-Type": "text/html"]))
        }
        guard case .unacceptableStatus(502, _, body) = error else {
            Issue.record("expected unacceptableStatus(502), got \(error)")
            return
        }
    }

    @Test func acceptableResponseNeverRunsTheErrorParse() throws {
        var resource = Episode.all
        resource.parseError = { _ in
            Issue.record("parseError ran for an acceptable response")
            return APIError(error: "", message: "")
        }
        #expect(try resource.value(from: fixture("episodes.json"), response: httpResponse(200)).count == 3)
    }

    @Test func errorParseIsASynchronousFunctionTestsCanCall() throws {
        let parseError = try #require(Episode.all.decodingErrors(as: APIError.self).parseError)
        #expect(
            try parseError(fixture("error-404.json")) as? APIError
                == APIError(error: "not_found", message: "No episode with id 42"))
        #expect(throws: DecodingError.self) { try parseError(Data("{}".utf8)) }
    }

    @Test func mapKeepsTheErrorParse() throws {
        let count = Episode.all.decodingErrors(as: APIError.self).map(\.count)
        let error = try #require(throws: WebserviceError.self) {
            try count.value(from: fixture("error-404.json"), response: httpResponse(404))
        }
        #expect(error.underlyingError is APIError)
    }

    @Test func descriptionNamesTheErrorTypeAndShowsTheBody() throws {
        let resource = Episode.all.decodingErrors(as: APIError.self)
        let error = try #require(throws: WebserviceError.self) {
            try resource.value(from: fixture("error-404.json"), response: httpResponse(404))
        }
        #expect("\(error)".hasPrefix("The server answered HTTP 404 with APIError: {\"error\": \"not_found\""))
    }

    @Test func loadThrowsTheServerErrorThroughTheTransport() async throws {
        let body = try fixture("error-404.json")
        let service = Webservice(transport: StubTransport.answering(404, body: body))
        let error = try await #require(throws: WebserviceError.self) {
            try await service.load(Episode.all.decodingErrors(as: APIError.self))
        }
        #expect((error.underlyingError as? APIError)?.error == "not_found")
        #expect(error.statusCode == 404)
    }
}
