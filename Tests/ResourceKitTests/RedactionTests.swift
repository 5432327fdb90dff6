import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// No textual form of an error ResourceKit throws shows a credential, wherever the credential hid.
@Suite struct RedactionTests {
    private static let secretURL = URL(
        string: "https://alice:pa55word@api.example.com/me?access_token=t0ken&sig=s1gnature&q=swift")!
    private static let secrets = ["pa55word", "t0ken", "s1gnature", "x-auth-value", "bearer-value"]

    /// A resource whose request carries credentials in its URL and in header fields no blocklist knows.
    private static var resource: Resource<Data> {
        var resource = Resource<Data>(url: secretURL)
        resource.headers = ["X-Auth": "x-auth-value", "Authorization": "Bearer bearer-value"]
        return resource
    }

    private func failure(throwing error: any Error) async throws -> WebserviceError {
        let webservice = Webservice(transport: StubTransport.answering(.computed { _ in throw error }))
        return try await #require(throws: WebserviceError.self) { try await webservice.load(Self.resource) }
    }

    private func expectNoSecret(in error: WebserviceError, sourceLocation: SourceLocation = #_sourceLocation) {
        var dumped = ""
        dump(error, to: &dumped)
        var underlying = ""
        if let cause = error.underlyingError { dump(cause, to: &underlying) }
        for form in [error.description, String(reflecting: error), error.localizedDescription, dumped, underlying] {
            for secret in Self.secrets {
                #expect(
                    !form.containsBytes(of: secret), "\(secret) leaked into: \(form)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func urlErrorKeepsItsCodeAndHostButNotTheCredentialsOfItsURLs() async throws {
        let underlying = NSError(
            domain: "curl", code: 7, userInfo: ["NSErrorFailingURLStringKey": Self.secretURL.absoluteString])
        let error = try await failure(
            throwing: URLError(
                .timedOut,
                userInfo: [
                    NSURLErrorFailingURLErrorKey: Self.secretURL,
                    NSLocalizedDescriptionKey: "Timed out loading \(Self.secretURL.absoluteString)",
                    NSUnderlyingErrorKey: underlying,
                ]))
        let urlError = try #require(try requireCase(\.transport, of: error) as? URLError)
        #expect(urlError.code == .timedOut)
        #expect(urlError.failingURL?.host == "api.example.com")
        #expect(urlError.failingURL?.query?.contains("q=swift") == true)
        expectNoSecret(in: error)
    }

    @Test func errorOfAnotherTypeThatShowsARequestCredentialIsKeptRedacted() async throws {
        struct EchoingError: Error {
            var sentHeader: String
        }
        let error = try await failure(throwing: EchoingError(sentHeader: "X-Auth: x-auth-value"))
        #expect(!(error.underlyingError is EchoingError))
        #expect(error.description.contains("REDACTED"))
        expectNoSecret(in: error)
    }

    /// A stream's body that breaks with an error showing a credential a middleware added is redacted as a load's is:
    /// against the request as sent, not the resource's.
    @Test func aStreamsBodyErrorShowingAMiddlewaresCredentialIsKeptRedacted() async throws {
        struct AddsCredential: Middleware {
            func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
                var request = request
                request.setValue("x-auth-value", forHTTPHeaderField: "X-Auth")
                return try await next(request, context)
            }
        }
        struct EchoingError: Error {
            var sentHeader: String
        }
        struct BreakingTransport: Transport {
            func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
                let echoed = "X-Auth: " + (request.value(forHTTPHeaderField: "X-Auth") ?? "")
                let chunks = AsyncThrowingStream<Data, any Error> { continuation in
                    continuation.yield(Data("first".utf8))
                    continuation.finish(throwing: EchoingError(sentHeader: echoed))
                }
                return (Response(statusCode: 200), ResponseBody(chunks))
            }
        }
        let webservice = Webservice(transport: BreakingTransport(), middleware: [AddsCredential()])
        let chunks = try await webservice.load(StreamingResource(chunksOf: Resource<Data>(url: Self.secretURL)))
        let error = try await #require(throws: WebserviceError.self) {
            for try await _ in chunks {}
        }
        #expect(!(error.underlyingError is EchoingError))
        expectNoSecret(in: error)
    }

    /// The same, for a credential the transport added itself, as a session adds its configured `Authorization`.
    @Test func aStreamsBodyErrorShowingATransportsOwnCredentialIsKeptRedacted() async throws {
        struct EchoingError: Error {
            var sentHeader: String
        }
        struct AddingTransport: Transport {
            func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
                var sent = request
                sent.setValue("x-auth-value", forHTTPHeaderField: "X-Auth")
                let chunks = AsyncThrowingStream<Data, any Error> { continuation in
                    continuation.yield(Data("first".utf8))
                    continuation.finish(throwing: EchoingError(sentHeader: "X-Auth: x-auth-value"))
                }
                var head = Response(statusCode: 200)
                head.request = sent
                return (head, ResponseBody(chunks))
            }
        }
        let webservice = Webservice(transport: AddingTransport())
        let chunks = try await webservice.load(StreamingResource(chunksOf: Resource<Data>(url: Self.secretURL)))
        let error = try await #require(throws: WebserviceError.self) {
            for try await _ in chunks {}
        }
        expectNoSecret(in: error)
    }

    /// `"x-auth-value\u{301}".contains("x-auth-value")` is false: the mark joins the last letter's `Character`.
    @Test func aSecretFollowedByACombiningMarkIsRedactedToo() async throws {
        struct EchoingError: Error {
            var sentHeader: String
        }
        let error = try await failure(throwing: EchoingError(sentHeader: "X-Auth: x-auth-value\u{301}"))
        #expect(!(error.underlyingError is EchoingError))
        expectNoSecret(in: error)
        #expect(!Redaction.scrub("é\u{301}t0ken\u{301}", removing: ["t0ken"]).containsBytes(of: "t0ken"))
    }

    @Test func errorThatShowsNoCredentialIsKeptAsItIs() async throws {
        struct Harmless: Error {
            var reason = "disk full"
        }
        let error = try await failure(throwing: Harmless())
        #expect((error.underlyingError as? Harmless)?.reason == "disk full")
    }

    @Test func headerValueWithALineBreakIsNeverSent() async throws {
        let transport = StubTransport.answering(.status(200))
        let webservice = Webservice(transport: transport)
        var resource = Self.resource
        resource.headers["X-Token"] = "t0ken\r\nX-Injected: yes"
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(resource) }
        #expect("\(try requireCase(\.encoding, of: error))".contains("X-Token"))
        #expect(await transport.requests.isEmpty)
        expectNoSecret(in: error)
    }

    @Test func bodyPreviewHidesCredentialFieldsAndKeepsTheMessage() {
        let body = Data(#"{"error": "expired", "access_token": "t0ken", "next": "https://x.test/?sig=s1gnature"}"#.utf8)
        let error = WebserviceError(.unacceptableStatus(.init(statusCode: 401, body: body)))
        #expect(error.description.contains(#""error": "expired""#))
        expectNoSecret(in: error)
    }

    /// A server that echoes the failed request's credentials in its error body: a field the resource set, and the
    /// credential ``Authentication`` added, followed by a combining mark or cut by the preview's limit.
    @Test(arguments: [
        (401, "bad key x-auth-value"), (403, "mw-t0ken-value\u{301} may not"),
        (403, String(repeating: "a", count: 183) + " mw-t0ken-value"),
    ])
    func bodyPreviewsHideTheFailedRequestsOwnCredentials(status: Int, echo: String) async throws {
        let server = StubTransport.answering(
            .status(
                status, headers: ["Content-Type": "application/json; echo=\(echo)"],
                body: Data(#"{"error": "\#(echo)"}"#.utf8)))
        let authentication = Authentication(for: [Self.secretURL]) { _ in "Bearer mw-t0ken-value" }
        let webservice = Webservice(transport: server, middleware: [authentication])
        var resource = Resource<Data>(url: Self.secretURL)
        resource.headers = ["X-Auth": "x-auth-value"]
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(resource) }
        #expect(error.statusCode == status)
        var dumped = ""
        dump(error, to: &dumped)
        for secret in ["x-auth-value", "mw-t0ken-value", "mw-t0"] {
            #expect(!error.description.containsBytes(of: secret), "\(error.description)")
            #expect(!dumped.containsBytes(of: secret), "\(dumped)")
        }
        #expect(error.description.containsBytes(of: "RED"), "\(error.description)")
    }

    @Test func bodyPreviewsCanBeTurnedOffForTheProcess() async throws {
        // The switch is process-wide, so it is flipped in a child process, away from the other tests.
        let error = WebserviceError(.unacceptableStatus(.init(statusCode: 500, body: Data(#"{"e":"boom"}"#.utf8))))
        let child = try await ChildProcess.run("off") {
            WebserviceError.describesBodies = false
            return error.description
        }
        guard let child else { return }
        #expect(child.exitedNormally, "\(child.output.suffix(2_000))")
        #expect(child.result == "The server answered HTTP 500 with 12 bytes.")
        #expect(error.description.contains("boom"), "on by default")
    }

    @Test func dumpShowsOnlyHarmlessResponseHeaderValues() {
        var dumped = ""
        let headers = ["X-Ticket": "x-auth-value", "Content-Type": "application/json", "Retry-After": "30"]
        dump(WebserviceError(.unacceptableStatus(.init(statusCode: 503, headers: headers))), to: &dumped)
        #expect(dumped.contains("application/json"))
        #expect(dumped.contains("30"))
        #expect(dumped.contains("X-Ticket"))
        #expect(!dumped.contains("x-auth-value"))
    }

    @Test(arguments: [
        ("http://bob:pa55word@host/x", "pa55word"),
        ("see https://host/cb?code=abc123&state=1", "abc123"),
        ("Authorization: Bearer t0ken.parts-here", "t0ken.parts-here"),
        ("GET /me;jsessionid=s3ss10n HTTP/1.1", "s3ss10n"),
        (#"{"password":"hunter22"}"#, "hunter22"),
        ("https://host/#access_token=fr4gment", "fr4gment"),
        (#"{"api_key": 12345678, "id": 1}"#, "12345678"),
        (#"{"tokens": ["t0k3n-one", ["t0k3n-two"]], "id": 1}"#, "t0k3n-two"),
    ])
    func descriptionsRedactCredentialsInAnyText(text: String, secret: String) {
        let error = WebserviceError(
            .transport(URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: text])))
        #expect(!error.description.contains(secret), "\(error.description)")
        #expect(error.description.contains("REDACTED"))
    }

    /// A field that holds nothing but credentials loses its number or array too; one whose name only contains a
    /// credential word, such as a count of tokens, keeps its value and its type.
    @Test func credentialValuesThatAreNotStringsLeaveValidJSON() throws {
        let body = #"{"api_key": -1.5e3, "tokens": ["a]", ["b"]], "id": 7, "prompt_tokens": 9, "authors": [1]}"#
        let error = WebserviceError(.unacceptableStatus(.init(statusCode: 400, body: Data(body.utf8))))
        let text = try #require(error.description.split(separator: ": ", maxSplits: 1).last)
        let fields = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        #expect(fields["api_key"] as? String == "REDACTED")
        #expect(fields["tokens"] as? String == "REDACTED")
        #expect(fields["id"] as? Int == 7)
        #expect(fields["prompt_tokens"] as? Int == 9)
        #expect(fields["authors"] as? [Int] == [1])
    }

    /// A form body, such as an OAuth token response saved as a fixture, starts with its first field.
    @Test(arguments: [
        ("access_token=gho_16C7e42F&scope=repo&token_type=x", "access_token=REDACTED&scope=repo&token_type=REDACTED"),
        ("password=hunter22&user=ada", "password=REDACTED&user=ada"),
    ])
    func aCredentialFieldThatStartsTheTextIsRedacted(text: String, redacted: String) {
        #expect(Redaction.scrub(text) == redacted)
    }

    @Test func pageCursorsAreNotCredentials() {
        let text = "https://host/items?pageToken=p4ge&next_token=n3xt&access_token=s3cr3t"
        let error = WebserviceError(
            .transport(URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: text])))
        #expect(error.description.contains("pageToken=p4ge&next_token=n3xt"), "\(error.description)")
        #expect(!error.description.contains("s3cr3t"))
    }

    /// Names real APIs use for keys and one-time codes, in query strings and in bodies, whatever their value's type.
    @Test(arguments: [
        "https://api.example.com/weather?appid=0penweather&q=Paris",
        "https://s3.example.com/x?access_key=acc3ss-key&page=2",
        "https://westeurope.api.example.com/vision?subscription-key=az-subscr1ption",
        #"{"pin": "1234", "user": "ada"}"#, #"{"pin": 1234, "user": "ada"}"#, #"{"otp": "987654"}"#,
        #"{"mfa_code": 112233}"#, #"{"mfa_code": "112233"}"#, "otp=987654&user=ada",
    ])
    func widelyUsedCredentialNamesAreRedactedWhateverTheValuesType(text: String) {
        let scrubbed = Redaction.scrub(text)
        for secret in ["0penweather", "acc3ss-key", "az-subscr1ption", "1234", "987654", "112233"] {
            #expect(!scrubbed.containsBytes(of: secret), "\(scrubbed)")
        }
        #expect(scrubbed.contains("REDACTED"))
    }

    /// The names are one process-wide list, so it is changed in a child process, away from the other tests.
    @Test func aCallerAddsItsAPIsOwnCredentialNames() async throws {
        let text = #"?x_partner_code=p4rtner&q=1 {"X-Partner-Code": 1234567, "pin": "1234"}"#
        let child = try await ChildProcess.run("names") {
            WebserviceError.credentialNames.insert("x_partner_code")
            return Redaction.scrub(text)
        }
        guard let child else { return }
        #expect(child.exitedNormally, "\(child.output.suffix(2_000))")
        #expect(child.result == #"?x_partner_code=REDACTED&q=1 {"X-Partner-Code": "REDACTED", "pin": "REDACTED"}"#)
        #expect(Redaction.scrub(text).contains("p4rtner"), "not a credential name by default")
    }

    /// The built-in names are listed in one article, which must keep up with them.
    @Test func theErrorHandlingArticleListsEveryBuiltInCredentialName() throws {
        let article = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Sources/ResourceKit/ResourceKit.docc/ErrorHandling.md"),
            encoding: .utf8)
        for name in WebserviceError.credentialNames {
            #expect(article.contains("`\(name)`"), "\(name) is not in ErrorHandling.md")
        }
    }
}

/// What `print`, `dump` and interpolation show of a request an observer or a middleware holds.
@Suite struct RequestDescriptionTests {
    @Test func aRequestShowsNoCredentialWhereverItIsPrinted() throws {
        let url = try #require(URL(string: "https://user:pa55@api.example.com/feed?api_key=k3y&page=2"))
        let request = Request(
            url: url,
            headerFields: [
                HeaderField(name: "Authorization", value: "Bearer t0ken"),
                HeaderField(name: "Accept", value: "text/plain"),
            ],
            body: RequestBody(Data("password=hunter2".utf8)))
        var dumped = ""
        dump(request, to: &dumped)
        for shown in [dumped, "\(request)", String(describing: request), String(reflecting: request)] {
            for secret in ["pa55", "k3y", "t0ken", "hunter2"] { #expect(!shown.contains(secret), "\(shown)") }
            #expect(shown.contains("text/plain"))
        }
    }
}
