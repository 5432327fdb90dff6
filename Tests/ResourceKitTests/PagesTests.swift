import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Pages of a paginated resource, one load each, until the last.
@Suite struct PagesTests {
    /// A server whose pages answer their own number, with a `Link` to the next one while there is one.
    private static func server(pages: Int, link: @escaping @Sendable (Int) -> String?) -> StubTransport {
        StubTransport.answering(
            .computed { request in
                let url = request.url
                let number =
                    Int(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value ?? "") ?? 1
                guard number <= pages else { return .status(404) }
                let headers = (number < pages ? link(number + 1) : nil).map { ["Link": $0] } ?? [:]
                return .status(200, headers: headers, body: Data("\(number)".utf8))
            })
    }

    /// A loader that answers each request with its body, or with `1` when it has none: a fake for a view model's
    /// tests, with no transport.
    private struct EchoLoader: ResourceLoading {
        func load<A>(_ resource: Resource<A>) async throws -> A {
            try resource.parse(resource.method.body ?? Data("1".utf8))
        }
    }

    private static let firstPage = Resource<String>(
        url: baseURL.appendingPathComponent("items"), parse: { String(decoding: $0, as: UTF8.self) })

    private func loadAll(_ pages: AsyncThrowingStream<String, any Error>) async throws -> [String] {
        var loaded: [String] = []
        for try await page in pages { loaded.append(page) }
        return loaded
    }

    @Test @MainActor func everyPageIsLoadedInOrderByItsNextLinkUntilOneHasNone() async throws {
        let transport = Self.server(pages: 3) { #"<?page=\#($0)>; rel="next""# }
        #expect(try await loadAll(Webservice(transport: transport).pages(of: Self.firstPage)) == ["1", "2", "3"])
        let urls = await transport.requests.map { $0.url.absoluteString }
        #expect(urls == ["items", "items?page=2", "items?page=3"].map { baseURL.absoluteString + "/" + $0 })
    }

    @Test func aFailingPageEndsTheSequenceWithItsErrorAfterThePagesBefore() async throws {
        let transport = Self.server(pages: 2) { #"<?page=\#($0 + 5)>; rel="next""# }
        var iterator = Webservice(transport: transport).pages(of: Self.firstPage).makeAsyncIterator()
        #expect(try await iterator.next() == "1")
        let error = try await #require(throws: WebserviceError.self) { try await iterator.next() }
        #expect(error.statusCode == 404)
        #expect(try await iterator.next() == nil)
    }

    @Test func aNextLinkToAnotherOriginGetsOnlyTheSafeHeaderFields() async throws {
        let transport = Self.server(pages: 3) { page in
            page == 2 ? #"<?page=2>; rel="next""# : #"<https://elsewhere.example/items?page=\#(page)>; rel="next""#
        }
        var first = Self.firstPage
        first.headers = ["Authorization": "Bearer secret", "X-Api-Key": "key", "Accept": "text/plain"]

        #expect(try await loadAll(Webservice(transport: transport).pages(of: first)) == ["1", "2", "3"])

        let sent = await transport.requests
        #expect(sent.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer secret", "Bearer secret", nil])
        #expect(sent.map { $0.value(forHTTPHeaderField: "X-Api-Key") } == ["key", "key", nil])
        #expect(sent.map { $0.value(forHTTPHeaderField: "Accept") } == ["text/plain", "text/plain", "text/plain"])
    }

    @Test func aRelativeFirstPageKeepsItsHeaderFieldsOnTheNextPagesOfItsResolvedOrigin() async throws {
        let transport = Self.server(pages: 3) { page in #"<?page=\#(page)>; rel="next""# }
        var first = Resource<String>(
            url: try #require(URL(string: "items")), parse: { String(decoding: $0, as: UTF8.self) })
        first.headers = ["X-Api-Key": "key"]
        let service = Webservice(baseURL: URL(string: "https://api.example.com/v1"), transport: transport)
        #expect(try await loadAll(service.pages(of: first)) == ["1", "2", "3"])
        let sent = await transport.requests
        #expect(
            sent.map(\.url.absoluteString)
                == ["", "?page=2", "?page=3"].map { "https://api.example.com/v1/items" + $0 })
        #expect(sent.map { $0.value(forHTTPHeaderField: "X-Api-Key") } == ["key", "key", "key"])
    }

    @Test func aCursorBackToARelativeFirstPageIsACircle() async throws {
        let transport = Self.server(pages: 3) { _ in nil }
        let first = Resource<String>(
            url: try #require(URL(string: "items")), parse: { String(decoding: $0, as: UTF8.self) })
        let service = Webservice(baseURL: URL(string: "https://api.example.com"), transport: transport)
        #expect(try await loadAll(service.pages(of: first) { _ in first }) == ["1"])
    }

    /// A page another origin's server led to is never answered from the cache, nor kept in it: its key can't tell it
    /// from the same URL loaded with credentials a transport adds on its own, such as a session's cookies.
    @Test func aPageOnAnotherOriginIsNeitherAnsweredFromNorKeptInTheCache() async throws {
        let elsewhere = try #require(URL(string: "https://elsewhere.example/items"))
        let answered = Counter()
        // Each answer on the other origin is a new version, so which one a load gets says where it came from.
        let transport = StubTransport.answering(
            .computed { request in
                let onFirstHost = request.url.host == baseURL.host
                let link = onFirstHost ? ["Link": "<\(elsewhere.absoluteString)>; rel=\"next\""] : [:]
                if !onFirstHost { answered.increment() }
                return .status(
                    200, headers: link.merging(["Cache-Control": "max-age=600"]) { $1 },
                    body: Data((onFirstHost ? "first" : "v\(answered.count)").utf8))
            })
        let webservice = Webservice(transport: transport, cache: ResponseCache(byteLimit: 1_000_000))
        let text = { @Sendable (data: Data) in String(decoding: data, as: UTF8.self) }
        // Stored, as loaded with the web service's credentials.
        #expect(try await webservice.load(Resource(url: elsewhere, parse: text)) == "v1")

        // The page comes from the network, not from what the credentialed load stored…
        #expect(try await loadAll(webservice.pages(of: Self.firstPage)) == ["first", "v2"])
        // … and isn't stored in its place.
        #expect(try await webservice.load(Resource(url: elsewhere, parse: text)) == "v1")
        var storedOnly = Resource(url: elsewhere, parse: text)
        storedOnly.cachePolicy = .storedOnly
        #expect(try await webservice.load(storedOnly) == "v1")
        #expect(answered.count == 2)
    }

    /// A middleware that adds a credential to every request, wherever it goes.
    private struct APIKey: Middleware {
        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            var request = request
            request.setValue("key", forHTTPHeaderField: "X-Api-Key")
            return try await next(request, context)
        }
    }

    /// A `URLSessionTransport` whose session adds a credential of its own to each request.
    enum SessionCredential: String, CaseIterable {
        /// `URLSessionTransport(configuration:)` with `Authorization` in `httpAdditionalHeaders`, as Transports.md shows.
        case configuredHeader
        /// `URLSessionTransport(session:)`, whose session's configuration adds `Authorization` itself.
        case callersSession
        /// `URLSessionTransport(configuration:)` with a cookie for every host.
        case cookie

        /// The header field that carries the credential.
        var field: String { self == .cookie ? "Cookie" : "Authorization" }

        /// Whether a load without credentials must be refused, as the session would add this one anyway: a caller's
        /// session adds its header fields itself, and FoundationNetworking ignores `httpShouldHandleCookies`.
        var isRefused: Bool {
            #if canImport(FoundationNetworking)
                self != .configuredHeader
            #else
                self == .callersSession
            #endif
        }

        /// A transport whose requests reach ``SessionServer``, with this credential.
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        func transport() throws -> URLSessionTransport {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [SessionServer.self]
            switch self {
            case .configuredHeader:
                configuration.httpAdditionalHeaders = ["Authorization": "Bearer session-secret"]
                return URLSessionTransport(configuration: configuration)
            case .callersSession:
                configuration.httpAdditionalHeaders = ["Authorization": "Bearer session-secret"]
                return URLSessionTransport(session: URLSession(configuration: configuration))
            case .cookie:
                let cookies = try #require(configuration.httpCookieStorage)
                for domain in ["api.example.com", "other.example"] {
                    let properties: [HTTPCookiePropertyKey: Any] = [
                        .domain: domain, .path: "/", .name: "session", .value: "cookie-secret",
                    ]
                    cookies.setCookie(try #require(HTTPCookie(properties: properties)))
                }
                return URLSessionTransport(configuration: configuration)
            }
        }
    }

    /// What goes on the wire: the page after `https://api.example.com` on another origin, or on the same host over
    /// `http`, gets no credential from the resource, a middleware, the session's configuration or its cookies.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(arguments: SessionCredential.allCases, ["http://other.example", "http://api.example.com"])
    func aPageOnAnotherOriginGetsNoCredentialFromAnyLayer(_ credential: SessionCredential, at origin: String)
        async throws
    {
        let prefix = "/" + UUID().uuidString
        var first = Resource<String>(
            url: try #require(URL(string: "https://api.example.com\(prefix)/1?next=\(origin)\(prefix)/2")),
            parse: { String(decoding: $0, as: UTF8.self) })
        first.headers = ["X-Resource-Key": "resource-secret", "Accept": "text/plain"]
        let webservice = Webservice(transport: try credential.transport(), middleware: [APIKey()])
        var iterator = webservice.pages(of: first).makeAsyncIterator()

        #expect(try await iterator.next() == "\(prefix)/1")
        let firstSent = try #require(SessionServer.requests(under: prefix).first)
        for field in [credential.field, "X-Api-Key", "X-Resource-Key"] {
            #expect(firstSent.value(forHTTPHeaderField: field) != nil, "\(field)")
        }

        if credential.isRefused {
            let error = try await #require(throws: WebserviceError.self) { try await iterator.next() }
            #expect(error.reason.isCredentialsRefused, "\(error)")
            #expect(SessionServer.requests(under: prefix).count == 1)
            return
        }
        #expect(try await iterator.next() == "\(prefix)/2")
        let sent = SessionServer.requests(under: prefix)
        try #require(sent.count == 2)
        for field in ["Authorization", "Cookie", "X-Api-Key", "X-Resource-Key"] {
            #expect(sent[1].value(forHTTPHeaderField: field) == nil, "\(field)")
        }
        #expect(sent[1].value(forHTTPHeaderField: "Accept") == "text/plain")
    }

    @Test func aCircleOfNextLinksEndsTheSequence() async throws {
        let transport = Self.server(pages: 5) { $0 == 3 ? #"<?page=2>; rel="next""# : #"<?page=\#($0)>; rel="next""# }
        #expect(try await loadAll(Webservice(transport: transport).pages(of: Self.firstPage)) == ["1", "2"])
    }

    /// The fragment is never sent: `/loop#x` and `/loop#xx` are one request, however the links number them.
    @Test func nextLinksThatDifferOnlyInTheirFragmentAreACircle() async throws {
        // Each page links to the same path with a longer fragment, five times, then to none.
        let transport = StubTransport.answering(
            .computed { request in
                let url = request.url
                let fragment = url.fragment ?? ""
                let link = fragment.count < 5 ? ["Link": #"</loop#\#(fragment)x>; rel="next""#] : [:]
                return .status(200, headers: link, body: Data(url.path.utf8))
            })
        #expect(try await loadAll(Webservice(transport: transport).pages(of: Self.firstPage)) == ["/items", "/loop"])
        #expect(await transport.requests.count == 2)
    }

    @Test func aLinkToAFileIsNotFollowedAndEndsTheSequenceWithAnErrorAfterItsPage() async throws {
        let transport = Self.server(pages: 2) { _ in #"<file:///etc/passwd>; rel="next""# }
        var iterator = Webservice(transport: transport).pages(of: Self.firstPage).makeAsyncIterator()

        #expect(try await iterator.next() == "1")
        let error = try await #require(throws: WebserviceError.self) { try await iterator.next() }

        let response = try requireCase(\.parsing, of: error).1
        #expect(response.value(forHTTPHeaderField: "Link") == #"<file:///etc/passwd>; rel="next""#)
        #expect((error.underlyingError as? URLError)?.code == .unsupportedURL)
        #expect(try await iterator.next() == nil)
        #expect(await transport.requests.count == 1)
    }

    @Test func aNextLinkToAnotherOriginForARequestWithABodyIsNotFollowed() async throws {
        let transport = Self.server(pages: 2) { _ in #"<https://elsewhere.example/items?page=2>; rel="next""# }
        let search = Resource<String>(
            url: baseURL.appendingPathComponent("items"), method: .post(Data("client_secret=s3cr3t".utf8)),
            parse: { String(decoding: $0, as: UTF8.self) })
        var iterator = Webservice(transport: transport).pages(of: search).makeAsyncIterator()

        #expect(try await iterator.next() == "1")
        let error = try await #require(throws: WebserviceError.self) { try await iterator.next() }

        #expect((error.underlyingError as? URLError)?.code == .unsupportedURL)
        #expect(await transport.requests.count == 1)
    }

    @Test func aCursorInTheBodyLeadsToTheNextPageUntilItIsNil() async throws {
        let pages = Webservice(transport: Self.server(pages: 3) { _ in nil }).pages(of: Self.firstPage) { page in
            guard let number = Int(page), number < 3 else { return nil }
            var next = Self.firstPage
            next.queryItems = [URLQueryItem(name: "page", value: "\(number + 1)")]
            return next
        }
        #expect(try await loadAll(pages) == ["1", "2", "3"])
    }

    /// Pages asked for with a cursor in the request body (a GraphQL query, say) all have the same URL.
    @Test func pagesOfTheSameURLWithOtherBodiesAreNotACircle() async throws {
        let first = Resource<String>(
            url: baseURL, method: .post(Data("1".utf8)), parse: { String(decoding: $0, as: UTF8.self) })
        let pages = EchoLoader().pages(of: first) { page in
            guard let number = Int(page), number < 3 else { return nil }
            var next = first
            next.method = .post(Data("\(number + 1)".utf8))
            return next
        }
        #expect(try await loadAll(pages) == ["1", "2", "3"])
        #expect(try await loadAll(EchoLoader().pages(of: first) { _ in first }) == ["1"])
    }

    @Test func aLoaderWithoutResponsesHasOnlyTheFirstLinkedPage() async throws {
        #expect(try await loadAll(EchoLoader().pages(of: Self.firstPage)) == ["1"])
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellationEndsTheIterationPromptly() async throws {
        let pages = Webservice(transport: StubTransport.stalling).pages(of: Gate.resource("a")) { _ in
            Gate.resource("a")
        }
        let iterating = Task {
            for try await _ in pages {}
        }
        try await Task.sleep(nanoseconds: 20_000_000)
        iterating.cancel()
        await #expect(throws: CancellationError.self) { try await iterating.value }
    }

    @Test func aCancelledTaskLoadsNoPage() async throws {
        let transport = Self.server(pages: 3) { #"<?page=\#($0)>; rel="next""# }
        let pages = Webservice(transport: transport).pages(of: Self.firstPage)
        let iterating = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await loadAll(pages)
        }
        #expect(try await iterating.value.isEmpty)
        #expect(await transport.requests.isEmpty)
    }
}
