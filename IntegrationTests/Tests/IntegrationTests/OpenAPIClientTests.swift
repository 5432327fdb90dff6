import EpisodesService
import Foundation
import HTTPTypes
import OpenAPIRuntime
import ResourceKit
import ResourceKitOpenAPI
import Testing

@testable import EpisodesOpenAPIClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client swift-openapi-generator makes of the Episodes service's document, sending through a `Webservice`
/// against the real server: each operation, an error status, and what the web service adds.
@Suite(.timeLimit(.minutes(1))) struct OpenAPIClientTests {
    @Test(arguments: TransportKind.allCases)
    func listAndGetAnswerWithTheServersEpisodes(kind: TransportKind) async throws {
        try await withServer { base in
            let client = Client(serverURL: base, transport: kind.webservice())
            let episodes = try await client.listEpisodes().ok.body.json
            #expect(episodes.map(\.number) == [1, 2, 3])
            let first = try #require(episodes.first)
            #expect(try await client.getEpisode(path: .init(id: first.id)).ok.body.json == first)
            #expect(try await client.getMedia(path: .init(id: first.id)).ok.body.json.episodeID == first.id)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func createReplaceUpdateAndDeleteChangeTheServersEpisodes(kind: TransportKind) async throws {
        try await withServer { base in
            let client = Client(serverURL: base, transport: kind.webservice())
            let created = try await client.createEpisode(body: .json(.init(title: "Tiny", synopsis: "Values"))).created
            let episode = try created.body.json
            #expect(episode.number == 4)
            #expect(created.headers.location == episode.url)

            let id = Operations.GetEpisode.Input.Path(id: episode.id)
            let replaced = try await client.replaceEpisode(
                path: .init(id: episode.id), body: .json(.init(title: "Tiny II", synopsis: "Again"))
            ).ok.body.json
            #expect(replaced.title == "Tiny II")
            let updated = try await client.updateEpisode(
                path: .init(id: episode.id), body: .json(.init(title: "Renamed"))
            )
            .ok.body.json
            #expect(updated.title == "Renamed")
            #expect(updated.synopsis == "Again")

            _ = try await client.deleteEpisode(path: .init(id: episode.id)).noContent
            guard case .default(let status, let error) = try await client.getEpisode(path: id) else {
                Issue.record("the deleted episode was found")
                return
            }
            #expect(status == 404)
            #expect(try error.body.json.error == "not_found")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anErrorStatusIsTheDocumentsResponseNotAThrow(kind: TransportKind) async throws {
        try await withServer { base in
            let client = Client(serverURL: base, transport: kind.webservice())
            let output = try await client.createEpisode(body: .json(.init(title: " ", synopsis: "Blank")))
            guard case .default(let status, let error) = output else {
                Issue.record("a blank title was accepted: \(output)")
                return
            }
            #expect(status == 422)
            #expect(try error.body.json == .init(error: "invalid_body", reason: #"Field "title" must not be empty"#))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aPathParameterArrivesPercentEncoded(kind: TransportKind) async throws {
        try await withServer { base in
            let client = Client(serverURL: base, transport: kind.webservice())
            guard case .default(let status, let error) = try await client.getEpisode(path: .init(id: "a b?c")) else {
                Issue.record("an episode \"a b?c\" was found")
                return
            }
            #expect(status == 404)
            // Hummingbird hands over the parameter as it came on the wire: encoded by the client, and kept so.
            #expect(try error.body.json.reason == "No episode with id a%20b%3Fc")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theWebservicesMiddlewareSeesEachCallByItsOperationID(kind: TransportKind) async throws {
        try await withServer { base in
            let seen = Shared<[String]>([])
            let client = Client(serverURL: base, transport: kind.webservice(middleware: [Recording(seen: seen)]))
            _ = try await client.listEpisodes().ok
            _ = try await client.getEpisode(path: .init(id: "1")).ok
            #expect(seen.value == ["listEpisodes GET /episodes", "getEpisode GET /episodes/1"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFreshResponseComesFromTheWebservicesCache(kind: TransportKind) async throws {
        try await withServer { base in
            let events = Shared<[WebserviceEvent]>([])
            let webservice = kind.webservice(
                cache: ResponseCache(byteLimit: 1_000_000), observer: { event in events.update { $0.append(event) } })
            let client = Client(serverURL: base, transport: webservice)
            let first = try await client.getCacheable().ok.body.json.served
            #expect(try await client.getCacheable().ok.body.json.served == first)
            let uncached = Client(serverURL: base, transport: kind.webservice())
            #expect(try await uncached.getCacheable().ok.body.json.served == first + 1)
            #expect(events.value.filter { if case .cacheHit = $0.kind { true } else { false } }.count == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theObserverHearsEachRequestAndItsStatus(kind: TransportKind) async throws {
        try await withServer { base in
            let events = Shared<[WebserviceEvent]>([])
            let client = Client(
                serverURL: base, transport: kind.webservice(observer: { event in events.update { $0.append(event) } }))
            _ = try await client.getEpisode(path: .init(id: "99"))
            let kinds = events.value.map(\.kind)
            #expect(kinds.count == 2)
            guard case .sent = kinds.first, case .received(404, _, _) = kinds.last else {
                Issue.record("unexpected events: \(events.value)")
                return
            }
            #expect(events.value.allSatisfy { $0.url == base / "episodes/99" })
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aBodyOverTheLimitAMiddlewareSetsFailsWithBodyTooLarge(kind: TransportKind) async throws {
        try await withServer { base in
            let limit = BodyLimit(operationID: "listEpisodes", maxBodySize: 64)
            let client = Client(serverURL: base, transport: kind.webservice(middleware: [limit]))
            _ = try await client.getEpisode(path: .init(id: "1")).ok  // another operation: no limit
            let error = try await #require(throws: ClientError.self) { try await client.listEpisodes() }
            let cause = try #require(error.underlyingError as? WebserviceError)
            #expect(cause.bodyTooLarge == 64)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFieldNameHTTPTypesRejectsNeverCrashesTheCall(kind: TransportKind) async throws {
        let response =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nBad Name: 1\r\nX-\u{212A}ey: 2\r\n"
            + "Content-Length: 2\r\n\r\n[]"
        try await withRawServer(answering: response) { base in
            let client = Client(serverURL: base, transport: kind.webservice())
            // A transport may refuse such a head; one that takes it hands over the rest of the response.
            do {
                let episodes = try await client.listEpisodes().ok.body.json
                #expect(episodes.isEmpty)
            } catch let error as ClientError {
                #expect(error.underlyingError is WebserviceError)
            }
        }
    }

    /// A path that starts with `//` (an empty path parameter first) reaches the server under the server URL's path,
    /// as it is: read as a URL, `//users` would be a host.
    @Test(arguments: TransportKind.allCases)
    func aPathThatStartsWithTwoSlashesReachesTheServerUnderTheBasePath(kind: TransportKind) async throws {
        try await withRawServer(answering: "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n") { base, received in
            let request = HTTPRequest(method: .delete, scheme: nil, authority: nil, path: "//users/42%2F7?q=a%20b")
            let (response, _) = try await kind.webservice().send(
                request, body: nil, baseURL: base.appendingPathComponent("api"), operationID: "deleteUser")
            #expect(response.status == .noContent)
            #expect(received() == ["DELETE /api//users/42%2F7?q=a%20b HTTP/1.1"])
        }
    }

    /// A path parameter `..` or `.`, which a generated client leaves unencoded, reaches the server as the same bytes
    /// through both transports, a parameter rather than a step up: curl removes dot segments, AsyncHTTPClient doesn't.
    @Test(arguments: TransportKind.allCases)
    func dotSegmentsReachTheServerAsTheSameBytesThroughEitherTransport(kind: TransportKind) async throws {
        for (path, line) in [
            ("/users/42/sessions/..", "DELETE /api/users/42/sessions/%2E%2E HTTP/1.1"),
            ("/users/./42/../x?q=..", "DELETE /api/users/%2E/42/%2E%2E/x?q=.. HTTP/1.1"),
            ("/users/.../..a/.b", "DELETE /api/users/.../..a/.b HTTP/1.1"),
        ] {
            try await withRawServer(answering: "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n") {
                base, received in
                let request = HTTPRequest(method: .delete, scheme: nil, authority: nil, path: path)
                let (response, _) = try await kind.webservice().send(
                    request, body: nil, baseURL: base.appendingPathComponent("api"), operationID: "deleteSession")
                #expect(response.status == .noContent)
                #expect(received() == [line], "\(path)")
            }
        }
    }

    /// Fields the server repeats, interleaved, arrive as each transport promises (Transports.md, Header fields):
    /// AsyncHTTPClient hands over each field in order; `URLSession` one value per name, so the fields come by name,
    /// a repeated one joined by commas in order, and each `Set-Cookie` apart again, its date's comma kept.
    @Test(arguments: TransportKind.allCases)
    func repeatedResponseFieldsArriveAsTheTransportPromises(kind: TransportKind) async throws {
        try await withServer { base in
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/faults/repeated-fields")
            let (response, _) = try await kind.webservice().send(
                request, body: nil, baseURL: base, operationID: "repeatedFields")
            let names = Set(repeatedFields.map { HTTPField.Name($0.0) })
            let fields = response.headerFields.filter { names.contains($0.name) }.map { "\($0.name): \($0.value)" }
            let (order, cookies) = (
                repeatedFields.filter { $0.0 == "X-Order" }, repeatedFields.filter { $0.0 != "X-Order" }
            )
            switch kind {
            case .asyncHTTPClient, .publicAPI:
                #expect(fields == repeatedFields.map { "\($0.0): \($0.1)" })
            case .urlSession, .publicSession:
                let joined = "X-Order: " + order.map(\.1).joined(separator: ", ")
                #expect(fields == cookies.map { "Set-Cookie: \($0.1)" } + [joined])
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aTransportFailureIsAWebserviceErrorWithoutTheCredential(kind: TransportKind) async throws {
        let secret = "s3cr3t-token-value"
        // Start a server, note its port, stop it: nothing listens there any more.
        let server = try await EpisodesServer.start()
        let base = server.baseURL
        await server.stop()
        let authentication = Authentication(for: [base]) { _ in "Bearer \(secret)" }
        let client = Client(serverURL: base, transport: kind.webservice(middleware: [authentication]))
        let error = try await #require(throws: ClientError.self) { try await client.listEpisodes() }
        let cause = try #require(error.underlyingError as? WebserviceError)
        #expect(cause.urlError != nil)
        #expect(!String(describing: error).contains(secret))
        #expect(!String(reflecting: error).contains(secret))
    }
}

/// Records each request's load name, method and path.
private struct Recording: Middleware {
    var seen: Shared<[String]>

    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        let line = "\(context.name ?? "-") \(request.method) \(request.url.path)"
        seen.update { $0.append(line) }
        return try await next(request, context)
    }
}

/// Limits the body of one operation's responses, which its load is named after.
private struct BodyLimit: Middleware {
    var operationID: String
    var maxBodySize: Int

    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        var context = context
        if context.name == operationID { context.maxBodySize = maxBodySize }
        return try await next(request, context)
    }
}
