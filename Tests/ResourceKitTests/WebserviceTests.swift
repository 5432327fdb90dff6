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

/// `Webservice.load`: sending the resource's request through the transport, what it reports when that fails,
/// cancellation and timeouts.
@Suite struct WebserviceTests {
    @Test func defaultAndSessionWebServicesSendWithAURLSessionTransport() {
        // The redirect rule itself is proven against a real server in the integration suite.
        #expect(Webservice().transport is URLSessionTransport)
        #expect(Webservice(session: URLSession(configuration: .ephemeral)).transport is URLSessionTransport)
        #expect(Webservice(maxConcurrentLoads: 2).transport is URLSessionTransport)
    }

    @Test func loadsAndParsesThroughTheTransport() async throws {
        let service = Webservice(transport: StubTransport.answering(.status(200, body: try fixture("episodes.json"))))
        let episodes = try await service.load(Episode.all)
        #expect(episodes.map(\.title) == ["Networking", "Networking: POST Requests", "Loading View Controllers"])
    }

    @Test func sendsTheRequestBuiltFromTheResource() async throws {
        let transport = StubTransport.answering(.status(201, body: try fixture("episode.json")))
        let service = Webservice(transport: transport)
        let created = try await service.load(Episode.create(Episode(id: "1", title: "Networking")))
        #expect(created == Episode(id: "1", title: "Networking"))
        let request = try #require(await transport.requests.first)
        #expect(await transport.requests.count == 1)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://api.example.com/episodes")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let body = try #require(request.bodyBytes)
        #expect(try JSONDecoder().decode(Episode.self, from: body) == Episode(id: "1", title: "Networking"))
    }

    @Test func transportFailureKeepsTheURLError() async throws {
        let service = Webservice(transport: StubTransport.answering(.failure(.notConnectedToInternet)))
        let error = try await #require(throws: WebserviceError.self) { try await service.load(Episode.all) }
        let underlying = try #require(try requireCase(\.transport, of: error) as? URLError)
        #expect(underlying.code == .notConnectedToInternet)
        #expect(error.statusCode == nil)
        #expect(error.body == nil)
    }

    @Test func transportFailureKeepsAnyOtherError() async throws {
        struct Unplugged: Error {}
        let service = Webservice(transport: StubTransport.answering(.computed { _ in throw Unplugged() }))
        let error = try await #require(throws: WebserviceError.self) { try await service.load(Episode.all) }
        #expect(try requireCase(\.transport, of: error) is Unplugged)
        #expect(error.underlyingError is Unplugged)
    }

    @Test func unacceptableStatusCarriesStatusHeadersAndBody() async throws {
        let body = try fixture("error-404.json")
        let service = Webservice(
            transport: StubTransport.answering(.status(404, headers: ["Content-Type": "application/json"], body: body)))
        let error = try await #require(throws: WebserviceError.self) { try await service.load(Episode.all) }
        let response = try requireCase(\.unacceptableStatus, of: error)
        #expect(response.statusCode == 404)
        #expect(response.body.data == body)
        #expect(response.headers["Content-Type"] == "application/json")
    }

    @Test func parseFailureCarriesTheDecodingErrorAndBody() async throws {
        let body = try fixture("episodes-missing-title.json")
        let service = Webservice(transport: StubTransport.answering(.status(200, body: body)))
        let error = try await #require(throws: WebserviceError.self) { try await service.load(Episode.all) }
        let (underlying, response) = try requireCase(\.parsing, of: error)
        #expect(response.statusCode == 200)
        #expect(response.body.data == body)
        #expect(try requireCase(\.keyNotFound, of: underlying as? DecodingError).key.stringValue == "title")
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
        let service = Webservice(transport: StubTransport.answering(.status(200)))
        #expect(try await service.load(waitsForMainActor))
    }

    // MARK: Cancellation

    @Test func cancelledBeforeStartThrowsCancellationWithoutSending() async throws {
        let transport = StubTransport.answering(.json("[]"))
        let service = Webservice(transport: transport)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await service.load(Episode.all)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await transport.requests.isEmpty)
    }

    /// How a transport behaves when the load it serves is cancelled mid-request.
    enum TransportOnCancel: String, CaseIterable {
        /// It stops waiting and throws `CancellationError`.
        case stops
        /// It throws `URLError(.cancelled)`, as FoundationNetworking's `URLSession` does.
        case throwsURLErrorCancelled
        /// It ignores the cancellation and answers anyway; the answer must not be parsed.
        case answersAnyway

        var transport: StubTransport {
            switch self {
            case .stops:
                .stalling
            case .throwsURLErrorCancelled:
                .answering(
                    .computed { _ in
                        do {
                            try await Task.sleep(nanoseconds: 60_000_000_000)
                        } catch {
                            throw URLError(.cancelled)
                        }
                        return .json("[]")
                    })
            case .answersAnyway:
                .answering(
                    .computed { _ in
                        try? await Task.sleep(nanoseconds: 60_000_000_000)
                        return .json("[]")
                    })
            }
        }
    }

    @Test(arguments: TransportOnCancel.allCases, [nil, 60] as [TimeInterval?])
    func cancellingMidRequestThrowsCancellation(transport: TransportOnCancel, timeout: TimeInterval?) async throws {
        let stub = transport.transport
        var resource = Episode.all
        resource.timeout = timeout
        let task = Task { try await Webservice(transport: stub).load(resource) }
        try await eventually("the transport has the request") { await stub.requests.count == 1 }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func transportsOwnCancellationErrorIsNotWrapped() async throws {
        let service = Webservice(transport: StubTransport.answering(.computed { _ in throw CancellationError() }))
        await #expect(throws: CancellationError.self) { try await service.load(Episode.all) }
    }

    @Test func cancelledURLErrorWithoutCancellationIsATransportError() async throws {
        let service = Webservice(transport: StubTransport.answering(.failure(.cancelled)))
        let error = try await #require(throws: WebserviceError.self) { try await service.load(Episode.all) }
        #expect((error.underlyingError as? URLError)?.code == .cancelled)
    }

    /// A timeout ends a response that takes too long; one that is not positive times out at once.
    @Test(arguments: [0.2, 0, -5, .nan] as [TimeInterval])
    func timeoutEndsAResponseThatTakesTooLong(timeout: TimeInterval) async throws {
        var resource = Episode.all
        resource.timeout = timeout
        let service = Webservice(transport: StubTransport.stalling)
        let error = try await #require(throws: WebserviceError.self) { try await service.load(resource) }
        #expect(error.reason.isTimedOut, "\(error)")
        #expect("\(error)".contains("timeout of \(timeout) s"))
    }

    @Test func timeoutHoldsForATransportThatIgnoresCancellation() async throws {
        let gate = Gate()
        var resource = Gate.resource("held")
        resource.timeout = 0.2
        let service = Webservice(transport: StubTransport.gated(by: gate))
        let opener = Task {
            try await Task.sleep(nanoseconds: 10_000_000_000)
            await gate.open("held")
        }
        let error = try await #require(throws: WebserviceError.self) { try await service.load(resource) }
        #expect(error.reason.isTimedOut, "\(error)")
        #expect(await gate.inFlight == 1)  // load returned before the transport could answer
        opener.cancel()
        await gate.open("held")
    }

    @Test func responseWithinTheTimeoutIsParsed() async throws {
        var resource = Episode.all
        resource.timeout = 60
        let service = Webservice(transport: StubTransport.answering(.status(200, body: try fixture("episodes.json"))))
        #expect(try await service.load(resource).count == 3)
    }

    @Test func transportErrorWithinTheTimeoutIsReportedAsItIs() async throws {
        var resource = Episode.all
        resource.timeout = 60
        let service = Webservice(transport: StubTransport.answering(.failure(.cannotConnectToHost)))
        let error = try await #require(throws: WebserviceError.self) { try await service.load(resource) }
        #expect((error.underlyingError as? URLError)?.code == .cannotConnectToHost)
    }
}
