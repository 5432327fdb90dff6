import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Identical `GET`s in flight share one request; cancelling one caller leaves the others theirs.
@Suite(.timeLimit(.minutes(1))) struct DeduplicationTests {
    private let gate = Gate()

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func webservice() -> Webservice {
        Webservice(transport: StubTransport.gated(by: gate), middleware: [Deduplication()])
    }

    /// Starts `count` loads of `resource` and waits until the transport holds the shared request.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func loads(
        _ count: Int,
        of resource: Resource<String>,
        through webservice: Webservice
    ) async throws -> [Task<String, any Error>] {
        let tasks = (0..<count).map { _ in Task { try await webservice.load(resource) } }
        try await eventually("the request reached the transport") { await gate.started.count == 1 }
        return tasks
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func identicalLoadsInFlightShareOneRequest() async throws {
        let tasks = try await loads(10, of: Gate.resource("a"), through: webservice())
        await gate.open("a")
        for task in tasks { #expect(try await task.value == "a") }
        #expect(await gate.started == ["a"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func everyCallerGetsTheSharedError() async throws {
        let tasks = try await loads(5, of: Gate.resource("a"), through: webservice())
        await gate.open("a", with: .fail(URLError(.networkConnectionLost)))
        for task in tasks {
            let error = try await #require(throws: WebserviceError.self) { try await task.value }
            #expect((try requireCase(\.transport, of: error) as? URLError)?.code == .networkConnectionLost)
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func requestsThatDifferInAHeaderFieldMethodBodyLimitOrTimeoutAreSentApart() async throws {
        let stalling = StubTransport.stalling
        let webservice = Webservice(transport: stalling, middleware: [Deduplication()])
        var other = Resource<Data>(url: baseURL)
        other.headers["Authorization"] = "Bearer someone-else"
        var limited = Resource<Data>(url: baseURL)
        limited.maxBodySize = 5
        // Equal strings to Swift, different bytes, and so different credentials.
        var composed = Resource<Data>(url: baseURL)
        composed.headers["Authorization"] = "Bearer caf\u{E9}"
        var decomposed = Resource<Data>(url: baseURL)
        decomposed.headers["Authorization"] = "Bearer cafe\u{301}"
        // Another transport timer: each caller's request would end with its own.
        var timed = Resource<Data>(url: baseURL)
        timed.timeout = 30
        let resources = [
            Resource<Data>(url: baseURL), other, Resource<Data>(url: baseURL, method: .post(Data())), limited, composed,
            decomposed, timed,
        ]
        let tasks = resources.map { resource in Task { try await webservice.load(resource) } }
        try await eventually("seven requests reached the transport") { await stalling.requests.count == 7 }
        for task in tasks { task.cancel() }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func webServicesWithOtherTransportsShareNothingThroughOneDeduplication() async throws {
        let shared = Deduplication()
        let alice = Webservice(transport: StubTransport.gated(by: gate), middleware: [shared])
        let bobsTransport = StubTransport.answering(.status(200, body: Data("bob".utf8)))
        let bob = Webservice(transport: bobsTransport, middleware: [shared])
        let alicesLoad = Task { try await alice.load(Gate.resource("a")) }
        try await eventually("alice's request reached her transport") { await gate.started == ["a"] }

        let bobsLoad = Task { try await bob.load(Gate.resource("a")) }
        let bobFinished = Finished.watching(bobsLoad)
        // Alice's request is held at the gate: a load that joined it would wait until it opens.
        try? await eventually("bob's load ended while alice's was held") { await bobFinished.result != nil }
        await gate.open("a")

        #expect(try await bobsLoad.value == "bob")
        #expect(await bobsTransport.requests.count == 1)
        #expect(try await alicesLoad.value == "a")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func loadsWithTheSameBodyLimitStillShare() async throws {
        var limited = Gate.resource("a")
        limited.maxBodySize = 100
        let tasks = try await loads(3, of: limited, through: webservice())
        await gate.open("a")
        for task in tasks { #expect(try await task.value == "a") }
        #expect(await gate.started == ["a"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aCancelledCallerStopsWaitingAndTheOthersStillGetTheResult() async throws {
        let tasks = try await loads(3, of: Gate.resource("a"), through: webservice())
        tasks[0].cancel()
        await #expect(throws: CancellationError.self) { try await tasks[0].value }
        await gate.open("a")
        #expect(try await tasks[1].value == "a")
        #expect(try await tasks[2].value == "a")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theSharedRequestIsCancelledWhenEveryCallerIs() async throws {
        let cancelled = StubTransport.stalling
        let webservice = Webservice(transport: cancelled, middleware: [Deduplication()])
        let tasks = (0..<3).map { _ in Task { try await webservice.load(Resource<Data>(url: baseURL)) } }
        try await eventually("the request reached the transport") { await cancelled.requests.count == 1 }
        for task in tasks { task.cancel() }
        for task in tasks { await #expect(throws: CancellationError.self) { try await task.value } }
        // The stalling transport returns only when cancelled: a new load finds no flight to join and sends again.
        let again = Task { try await webservice.load(Resource<Data>(url: baseURL)) }
        try await eventually("a new request was sent") { await cancelled.requests.count == 2 }
        again.cancel()
    }
}
