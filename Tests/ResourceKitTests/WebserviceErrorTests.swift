import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct WebserviceErrorTests {
    private static let credentials = [
        "Authorization": "Bearer s3cr3t-token",
        "Set-Cookie": "session=c00kie-value",
        "Cookie": "id=c00kie-two",
        "X-API-Key": "k3y-value",
        "Proxy-Authorization": "Basic cHJveHk=",
    ]
    private static let secretValues = ["s3cr3t-token", "c00kie-value", "c00kie-two", "k3y-value", "cHJveHk="]

    private static let errorsWithHeaders: [WebserviceError] = [
        .unacceptableStatus(
            Response(
                statusCode: 401,
                headers: credentials.merging(["Content-Type": "application/json"]) { $1 },
                body: Data(#"{"error":"expired"}"#.utf8)
            )),
        .parsing(URLError(.cannotParseResponse), Response(statusCode: 200, headers: credentials, body: Data("{".utf8))),
        .apiError(URLError(.userAuthenticationRequired), Response(statusCode: 401, headers: credentials)),
    ].map(WebserviceError.init)

    @Test(arguments: errorsWithHeaders)
    func noTextualFormRevealsCredentialHeaderValues(error: WebserviceError) {
        var dumped = ""
        dump(error, to: &dumped)
        for text in [error.description, "\(error)", String(reflecting: error), error.localizedDescription, dumped] {
            for secret in Self.secretValues {
                #expect(!text.contains(secret), "\(secret) leaked into: \(text)")
            }
        }
        #expect(dumped.contains("REDACTED"))
        #expect(error.response?.headers["Authorization"] == "Bearer s3cr3t-token", "the value itself stays available")
        #expect(error.response?.value(forHTTPHeaderField: "authorization") == "Bearer s3cr3t-token")
    }

    @Test func unacceptableStatusDescriptionShowsStatusTypeAndBodyStart() {
        let error = WebserviceError(
            .unacceptableStatus(
                .init(
                    statusCode: 404,
                    headers: ["content-type": "application/json"],
                    body: Data(#"{"error":"not_found"}"#.utf8)
                )))
        #expect(
            error.description
                == #"The server answered HTTP 404 with 21 bytes of application/json: {"error":"not_found"}"#)
    }

    @Test func longBodiesAreCutInTheDescription() {
        let error = WebserviceError(.unacceptableStatus(.init(statusCode: 500, body: Data(repeating: 65, count: 1000))))
        #expect(error.description.hasSuffix(String(repeating: "A", count: 200) + "…"))
        #expect(error.description.contains("1000 bytes"))
    }

    @Test func binaryBodiesAreNotPrinted() {
        let error = WebserviceError(.unacceptableStatus(.init(statusCode: 502, body: Data([0xFF, 0xFE, 0x00]))))
        #expect(error.description == "The server answered HTTP 502 with 3 bytes.")
    }

    @Test func parsingDescriptionNamesTheCodingPath() throws {
        let body = try fixture("episodes-missing-title.json")
        let error = try #require(throws: WebserviceError.self) {
            try Episode.all.value(from: body, response: httpResponse(200))
        }
        #expect(error.description.contains(#"missing key "title" at [1]"#))
        #expect(error.description.contains("HTTP 200"))
        #expect(!error.description.contains("\"2\""), "a parsed body is not echoed into logs")
    }

    @Test func transportAndEncodingDescriptionsNameTheCause() {
        #expect(
            WebserviceError(.transport(URLError(.timedOut))).description.hasPrefix(
                "The request failed before a response arrived"))
        #expect(WebserviceError(.nonHTTPResponse(body: Data("ab".utf8))).description.contains("2 bytes"))
        let encoding = WebserviceError(
            .encoding(
                EncodingError.invalidValue(Double.nan, .init(codingPath: [], debugDescription: "NaN"))
            ))
        #expect(encoding.description.hasPrefix("The request could not be made: "))
        #expect(encoding.description.contains("NaN"))
    }

    @Test func transportDescriptionNamesTheURLErrorCode() {
        #expect(
            WebserviceError(.transport(URLError(.timedOut))).description
                == "The request failed before a response arrived: URLError -1001 (timed out)"
        )
        #expect(WebserviceError(.transport(URLError(.zeroByteResource))).description.hasSuffix("URLError -1014"))
    }

    @Test func aOneByteBodyIsOneByte() {
        #expect(WebserviceError(.nonHTTPResponse(body: Data("a".utf8))).description.contains("(1 byte)"))
    }

    @Test func headerFieldsAreLookedUpCaseInsensitively() {
        let error = WebserviceError(.unacceptableStatus(.init(statusCode: 429, headers: ["Retry-After": "30"])))
        #expect(error.response?.value(forHTTPHeaderField: "retry-after") == "30")
        #expect(error.response?.value(forHTTPHeaderField: "RETRY-AFTER") == "30")
        #expect(error.response?.value(forHTTPHeaderField: "Date") == nil)
        #expect(WebserviceError(.encoding(URLError(.unknown))).response == nil)
    }

    @Test func everyCaseWithAResponseSharesItsStatusAndBody() {
        let response = Response(statusCode: 418, headers: ["Retry-After": "1"], body: Data("x".utf8))
        let errors: [WebserviceError] = [
            .unacceptableStatus(response), .apiError(URLError(.unknown), response),
            .parsing(URLError(.unknown), response),
        ].map(WebserviceError.init)
        for error in errors {
            #expect(error.statusCode == 418)
            #expect(error.body == Data("x".utf8))
            #expect(error.response?.headers == ["Retry-After": "1"])
        }
        #expect(WebserviceError(.unacceptableStatus(response)).underlyingError == nil)
        #expect(WebserviceError(.nonHTTPResponse(body: Data("y".utf8))).body == Data("y".utf8))
    }

    @Test func previewCutsAtACharacterBoundary() {
        let body = Data((String(repeating: "a", count: 199) + "é and more").utf8)  // "é" is bytes 200 and 201
        let description = WebserviceError(.unacceptableStatus(.init(statusCode: 500, body: body))).description
        #expect(description.hasSuffix(": " + String(repeating: "a", count: 199) + "…"))
    }

    @Test func previewStaysOnOneLine() {
        let body = Data("<html>\n<body>\r\n\tBad gateway</body>\n</html>\n".utf8)
        let description = WebserviceError(.unacceptableStatus(.init(statusCode: 502, body: body))).description
        #expect(!description.contains { $0.isNewline || $0 == "\t" })
        #expect(description.contains("Bad gateway"))
    }

    @Test func requireCaseFailsTheTestForAnotherCase() throws {
        // The tests' helper for error cases can fail: another case is an issue and a thrown error, not a pass.
        #expect(try requireCase(\.bodyTooLarge, of: WebserviceError(.bodyTooLarge(limit: 3))) == 3)
        withKnownIssue {
            _ = try requireCase(\.bodyTooLarge, of: WebserviceError(.encoding(URLError(.unknown))))
        }
        withKnownIssue {
            _ = try requireCase(\.keyNotFound, of: nil as DecodingError?)
        }
    }

    @Test func aLoadsErrorNamesItsMethodAndURLWithoutCredentials() async throws {
        var resource = thing(.post(Data("{}".utf8)))
        resource.queryItems = [URLQueryItem(name: "access_token", value: "s3cr3t")]
        let webservice = Webservice(transport: StubTransport.answering(.status(404)))
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(resource) }
        #expect(error.method == "POST")
        #expect(error.url?.absoluteString == "https://api.example.com/thing?access_token=REDACTED")
        #expect(error.attempts == 1)
        #expect("\(error)".hasPrefix("POST https://api.example.com/thing?access_token=REDACTED: The server answered"))
        #expect(!"\(error)".contains("s3cr3t"))
    }

    @Test func aTransportFailureCountsItsAttemptsAsAField() async throws {
        let webservice = Webservice(
            transport: StubTransport.answering(.failure(.networkConnectionLost)),
            middleware: [RetryPolicy(maxAttempts: 3, baseDelay: 0)])
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(thing()) }
        #expect(error.attempts == 3)
        #expect(error.method == "GET")
        #expect((error.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect("\(error)".hasSuffix("(3 attempts)"))
    }

    /// The request is attached in one place, on the error's way out: a middleware gets the transport's failure
    /// without it, the observer's event and the caller's error name it once.
    @Test func aFailureNamesItsRequestOnceOnItsWayOut() async throws {
        let seen = Notes<WebserviceError>()
        let events = EventLog()
        let webservice = Webservice(
            transport: StubTransport.answering(.failure(.networkConnectionLost)),
            middleware: [Catching(seen: seen)],
            observer: events.observer)
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(thing()) }
        #expect(error.method == "GET")
        #expect("\(error)".components(separatedBy: "https://api.example.com/thing").count == 2, "\(error)")
        let inner = try #require(await seen.all.first)
        #expect(inner.method == nil && inner.url == nil, "\(inner)")
        #expect((inner.underlyingError as? URLError)?.code == .networkConnectionLost)
        let failed = try #require(events.descriptions.last)
        #expect(failed.components(separatedBy: "https://api.example.com/thing").count == 2, "\(failed)")
    }

    /// Notes the ``WebserviceError`` the layers after it throw.
    private struct Catching: Middleware {
        let seen: Notes<WebserviceError>

        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            do {
                return try await next(request, context)
            } catch let error as WebserviceError {
                await seen.append(error)
                throw error
            }
        }
    }

    @Test func anErrorMadeOutsideALoadNamesNoRequest() {
        let error = WebserviceError(.bodyTooLarge(limit: 1))
        #expect(error.method == nil && error.url == nil && error.attempts == 1)
        #expect("\(error)".hasPrefix("The response body is larger"))
    }
}
