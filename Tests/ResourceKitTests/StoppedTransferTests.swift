import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transfer a load stops, by its body limit, its timeout or its caller, ends at the server: a hostile server against
/// `URLSessionTransport`'s own session.
///
/// Each server streams at most `cap` bytes; a transfer the client stops ends with the client closing the connection
/// long before that.
@Suite(.serialized) struct StoppedTransferTests {
    private static let cap = 1 << 30
    /// Microseconds between 64 KiB writes for the bodies a load stops once they flowed.
    ///
    /// A task's cancellation waits for curl's thread to let go of the session, which it hardly does while a loopback
    /// flood keeps it delivering (FoundationNetworking), so an unpaced flood can reach the cap on a loaded machine.
    /// Paced, 1 GiB takes 16 s.
    private static let pace: UInt32 = 1_000

    private func limited(_ url: URL, to limit: Int?) -> Resource<Data> {
        var resource = Resource<Data>(url: url)
        resource.maxBodySize = limit
        return resource
    }

    /// Loads a body of `head` from a paced server with a limit of 1 KiB, requires `bodyTooLarge`, and returns what the
    /// server saw.
    private func loadOverTheLimit(head: String) async throws -> HostileServer.Report {
        let server = try HostileServer(head: head, cap: Self.cap, pause: Self.pace)
        let webservice = Webservice(transport: URLSessionTransport())
        let error = try await #require(throws: WebserviceError.self) {
            try await webservice.load(limited(server.url, to: 1024))
        }
        guard case .bodyTooLarge = error.reason else { throw error }
        return try #require(await server.report())
    }

    @Test func aContentLengthOverTheLimitStopsTheTransfer() async throws {
        // Paced as the others: the transport refuses the body at its head, but its task's cancellation may wait for
        // curl's thread, which an unpaced loopback flood keeps busy to the cap on a loaded machine (seen in CI).
        let report = try await loadOverTheLimit(head: "HTTP/1.1 200 OK\r\nContent-Length: 100000000000\r\n\r\n")
        #expect(report.clientClosed, "the client read \(report.sent) bytes of a body it had refused")
    }

    @Test func a401WithAChallengeStopsAtTheBodyLimit() async throws {
        let server = try HostileServer(
            head: "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"r\"\r\nConnection: close\r\n\r\n",
            cap: Self.cap, pause: Self.pace)
        let webservice = Webservice(transport: URLSessionTransport())
        _ = await #expect(throws: WebserviceError.self) {
            try await webservice.load(limited(server.url, to: 1024))
        }
        let report = try #require(await server.report())
        #expect(report.clientClosed, "the client held \(report.sent) bytes of a 401's body over a 1 KiB limit")
    }

    @Test func aBodyTheCallerDropsStopsTheTransfer() async throws {
        let server = try HostileServer(
            head: "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", cap: Self.cap, pause: Self.pace)
        let transport = URLSessionTransport()
        let (head, _) = try await transport.send(Request(url: server.url), context: LoadContext())
        #expect(head.statusCode == 200)
        let report = try #require(await server.report())
        #expect(report.clientClosed, "the client kept reading \(report.sent) bytes of a body no one reads")
    }

    // MARK: Checked and sound

    @Test func aBodyOverTheLimitWithoutALengthStopsTheTransfer() async throws {
        let report = try await loadOverTheLimit(head: "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
        #expect(report.clientClosed)
    }

    @Test func aTimeoutStopsASlowBody() async throws {
        let server = try HostileServer(
            head: "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", chunk: Data("a".utf8), cap: Self.cap, pause: 10_000)
        let webservice = Webservice(transport: URLSessionTransport())
        var resource = limited(server.url, to: nil)
        resource.timeout = 1.5
        let started = Date()
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(resource) }
        #expect(error.reason.isTimedOut, "\(error)")
        #expect(Date().timeIntervalSince(started) >= 1.4)
        let report = try #require(await server.report())
        #expect(report.clientClosed)
    }

    @Test func aDownloadOverTheLimitLeavesNoFileBehind() async throws {
        let server = try HostileServer(head: "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", cap: Self.cap)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("review-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var resource = Resource<URL>(url: server.url, downloadingTo: directory.appendingPathComponent("file"))
        resource.maxBodySize = 1 << 20
        let webservice = Webservice(transport: URLSessionTransport())
        await #expect(throws: WebserviceError.self) { try await webservice.load(resource) }
        let report = try #require(await server.report())
        #expect(report.clientClosed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }
}

extension StoppedTransferTests {
    @Test(arguments: [0.5, 1.5]) func aSubSecondResourceTimeoutIsNotCutShortByCurl(seconds: Double) async throws {
        let server = try HostileServer(
            head: "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", chunk: Data("a".utf8), cap: 1 << 20, pause: 10_000)
        let webservice = Webservice(transport: URLSessionTransport())
        var resource = Resource<Data>(url: server.url)
        resource.timeout = seconds
        let started = Date()
        await #expect(throws: WebserviceError.self) { try await webservice.load(resource) }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= seconds - 0.1, "a \(seconds) s timeout fired after \(elapsed) s")
    }
}
