import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct WebserviceTests {
    @Test func sessionInitializerUsesTheSessionAsItIs() {
        let session = URLSession(configuration: .ephemeral)
        #expect(Webservice(session: session).transport as? URLSession === session)
    }

    @Test func defaultTransportsAreResourceKitsRedirectSafeSessions() {
        // The redirect rule itself is proven against a real server in the integration suite.
        #expect(!(Webservice().transport is URLSession))
        #expect(!(Webservice(configuration: .ephemeral).transport is URLSession))
    }

    @Test func loadsAndParsesThroughTheTransport() async throws {
        let service = Webservice(transport: StubTransport.answering(200, body: try fixture("episodes.json")))
        let episodes = try await service.load(Episode.all)
        #expect(episodes.map(\.title) == ["Networking", "Networking: POST Requests", "Loading View Controllers"])
    }

    @Test func sendsTheRequestBuiltFromTheResource() async throws {
        let log = RequestLog()
        let service = Webservice(
            transport: StubTransport { request in
                await log.record(request)
                return (try fixture("episode.json"), try httpResponse(201, url: try #require(request.url)))
            })
        let created = try await service.load(Episode.create(Episode(id: "1", title: "Networking")))
        #expect(created == Episode(id: "1", title: "Networking"))
        let request = try #require(await log.requests.first)
        #expect(await log.requests.count == 1)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://api.example.com/episodes")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let body = try #require(request.httpBody)
        #expect(try JSONDecoder().decode(Episode.self, from: body) == Episode(id: "1", title: "Networking"))
    }

    @Test func transportFailureKeepsTheURLError() async throws {
        let service = Webservice(transport: StubTransport { _ in throw URLError(.notConnectedToInternet) })
        let error = try await #require(throws: WebserviceError.self) { try await service.load(Episode.all) }
        guard case .transport(let underlying as URLError) = error else {
            Issue.record("expected transport(URLError), got \(error)")
            return
        }
        #expect(underlying.code == .notConnectedToInternet)
        #expect(error.urlError?.code == .notConnectedToInternet)
        #expect(error.statusCode == nil)
        #expect(error.body == nil)
    }

    @Test func transportFailureKeepsAnyOtherError() async throws {
        struct Unplugged: Error {}
        let service = Webservice(transport: StubTransport { _ in throw Unplugged() })
        let error = try await #require(throws: WebserviceError.self) { try await service.load(Episode.all) }
        #expect(error.underlyingError is Unplugged)
        #expect(error.urlError == nil)
    }

    @Test func unacceptableStatusCarriesStatusHeadersAndBody() async throws {
        let body = try fixture("error-404.json")
        let service = Webservice(
            transport: StubTransport.answering(404, body: body, headers: ["Content-Type": "application/json"]))
        let error = try await #require(throws: WebserviceError.self) { try await service.load(Episode.all) }
        guard case .unacceptableStatus(404, let headers, body) = error else {
            Issue.record("expected unacceptableStatus(404), got \(error)")
            return
        }
        #expect(headers["Content-Type"] == "application/json")
    }

    @Test func parseFailureCarriesTheDecodingErrorAndBody() async throws {
        let body = try fixture("episodes-missing-title.json")
        let service = Webservice(transport: StubTransport.answering(200, body: body))
        let error = try await #require(throws: WebserviceError.self) { try await service.load(Episode.all) }
        guard case .parsing(let underlying as DecodingError, 200, _, body) = error else {
            Issue.record("expected parsing(DecodingError), got \(error)")
            return
        }
        guard case .keyNotFound(let key, _) = underlying else {
            Issue.record("expected keyNotFound, got \(underlying)")
            return
        }
        #expect(key.stringValue == "title")
    }

    @Test func nonHTTPResponseIsAnError() async throws {
        let service = Webservice(
            transport: StubTransport { request in
                let url = try #require(request.url)
                return (
                    Data("x".utf8),
                    URLResponse(url: url, mimeType: nil, expectedContentLength: 1, textEncodingName: nil)
                )
            })
        let error = try await #require(throws: WebserviceError.self) { try await service.load(Episode.all) }
        guard case .nonHTTPResponse(let body) = error else {
            Issue.record("expected nonHTTPResponse, got \(error)")
            return
        }
        #expect(body == Data("x".utf8))
    }

    @MainActor
    @Test func parsingLeavesAMainActorCallersActorFree() async throws {
        // The parse waits for a job on the main actor. It can only finish if the parse is not holding the main
        // actor itself; were it running there, the wait would time out and the load would return false.
        let mainActorRan = DispatchSemaphore(value: 0)
        let waitsForMainActor = Resource<Bool>(
            url: baseURL,
            parse: { _ in
                Task { @MainActor in mainActorRan.signal() }
                return mainActorRan.wait(timeout: .now() + 10) == .success
            })
        let service = Webservice(transport: StubTransport.answering(200, body: Data()))
        #expect(try await service.load(waitsForMainActor))
    }

    // MARK: Cancellation

    @Test func cancelledBeforeStartThrowsCancellationWithoutSending() async throws {
        let log = RequestLog()
        let service = Webservice(
            transport: StubTransport { request in
                await log.record(request)
                return (Data("[]".utf8), try httpResponse(200))
            })
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await service.load(Episode.all)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await log.requests.isEmpty)
    }

    @Test func cancellingMidRequestThrowsCancellation() async throws {
        try await expectCancellation { _ in
            try await Task.sleep(nanoseconds: 60_000_000_000)
            return (Data("[]".utf8), try httpResponse(200))
        }
    }

    @Test func linuxStyleCancelledURLErrorBecomesCancellationError() async throws {
        try await expectCancellation { _ in
            // What FoundationNetworking's URLSession does when its task is cancelled.
            do {
                try await Task.sleep(nanoseconds: 60_000_000_000)
            } catch {
                throw URLError(.cancelled)
            }
            return (Data("[]".utf8), try httpResponse(200))
        }
    }

    @Test func responseArrivingAfterCancellationIsNotParsed() async throws {
        try await expectCancellation { _ in
            // A transport that ignores cancellation and answers anyway.
            try? await Task.sleep(nanoseconds: 60_000_000_000)
            return (Data("[]".utf8), try httpResponse(200))
        }
    }

    @Test func transportsOwnCancellationErrorIsNotWrapped() async throws {
        let service = Webservice(transport: StubTransport { _ in throw CancellationError() })
        await #expect(throws: CancellationError.self) { try await service.load(Episode.all) }
    }

    @Test func cancelledURLErrorWithoutCancellationIsATransportError() async throws {
        let service = Webservice(transport: StubTransport { _ in throw URLError(.cancelled) })
        let error = try await #require(throws: WebserviceError.self) { try await service.load(Episode.all) }
        #expect(error.urlError?.code == .cancelled)
    }

    @Test func timeoutEndsAResponseThatTakesTooLong() async throws {
        var resource = Episode.all
        resource.timeout = 0.2
        let service = Webservice(transport: StubTransport.stalling)
        let error = try await #require(throws: WebserviceError.self) { try await service.load(resource) }
        #expect(error.urlError?.code == .timedOut)
        #expect("\(error)".contains("timeout of 0.2 s"))
    }

    @Test func timeoutHoldsForATransportThatIgnoresCancellation() async throws {
        let latch = Latch()
        var resource = Episode.all
        resource.timeout = 0.2
        let service = Webservice(
            transport: StubTransport { _ in
                await latch.wait()  // a continuation that ignores cancellation
                return (Data("[]".utf8), try httpResponse(200))
            })
        let opener = Task {
            try await Task.sleep(nanoseconds: 10_000_000_000)
            await latch.open()
        }
        let error = try await #require(throws: WebserviceError.self) { try await service.load(resource) }
        #expect(error.urlError?.code == .timedOut)
        #expect(await !latch.isOpen)  // load returned before the transport could answer
        opener.cancel()
        await latch.open()
    }

    @Test func responseWithinTheTimeoutIsParsed() async throws {
        var resource = Episode.all
        resource.timeout = 60
        let service = Webservice(transport: StubTransport.answering(200, body: try fixture("episodes.json")))
        #expect(try await service.load(resource).count == 3)
    }

    @Test func transportErrorWithinTheTimeoutIsReportedAsItIs() async throws {
        var resource = Episode.all
        resource.timeout = 60
        let service = Webservice(transport: StubTransport { _ in throw URLError(.cannotConnectToHost) })
        let error = try await #require(throws: WebserviceError.self) { try await service.load(resource) }
        #expect(error.urlError?.code == .cannotConnectToHost)
    }

    static let nonPositiveTimeouts: [TimeInterval] = [0, -5, .nan]

    @Test(arguments: nonPositiveTimeouts)
    func timeoutThatIsNotPositiveTimesOutAtOnce(timeout: TimeInterval) async throws {
        var resource = Episode.all
        resource.timeout = timeout
        let service = Webservice(transport: StubTransport.stalling)
        let error = try await #require(throws: WebserviceError.self) { try await service.load(resource) }
        #expect(error.urlError?.code == .timedOut)
    }

    @Test func cancellingALoadWithATimeoutThrowsCancellation() async throws {
        var resource = Episode.all
        resource.timeout = 60
        try await expectCancellation(of: resource) { _ in
            try await Task.sleep(nanoseconds: 60_000_000_000)
            return (Data("[]".utf8), try httpResponse(200))
        }
    }

    /// Starts a load whose transport runs `respond`, cancels it once the transport has the request, and expects
    /// `CancellationError`.
    private func expectCancellation(
        of resource: Resource<[Episode]> = Episode.all,
        _ respond: @escaping @Sendable (URLRequest) async throws -> (Data, URLResponse)
    ) async throws {
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let service = Webservice(
            transport: StubTransport { request in
                startedContinuation.yield()
                return try await respond(request)
            })
        let task = Task { try await service.load(resource) }
        var iterator = started.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
