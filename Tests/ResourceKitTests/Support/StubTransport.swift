import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The tests' one transport: it answers every request with a closure, so a test decides what the "server" does, and
/// keeps every request it was asked in ``log``.
///
/// It implements `data(for:maxBodySize:)` as a transport that can stop early does: the log notes the limit, and with
/// `stopsAtBodyLimit` a longer body throws `bodyTooLarge`, as `URLSessionTransport` does.
struct StubTransport: Transport {
    /// The requests this transport and its copies were asked, in order.
    let log = RequestLog()
    /// Whether a body longer than the limit `data(for:maxBodySize:)` was given throws `bodyTooLarge`.
    var stopsAtBodyLimit = false
    var respond: @Sendable (URLRequest) async throws -> (Data, URLResponse)

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        await log.record(request, bodyLimit: nil)
        return try await respond(request)
    }

    func data(for request: URLRequest, maxBodySize: Int) async throws -> (Data, URLResponse) {
        await log.record(request, bodyLimit: maxBodySize)
        let (body, response) = try await respond(request)
        if stopsAtBodyLimit, body.count > maxBodySize {
            throw WebserviceError.bodyTooLarge(limit: maxBodySize)
        }
        return (body, response)
    }
}

extension StubTransport {
    /// Answers every request with `statusCode`, `body` and `headers`, for the request's URL.
    static func answering(
        _ statusCode: Int,
        body: Data,
        headers: [String: String] = ["Content-Type": "application/json"],
        stopsAtBodyLimit: Bool = false
    ) -> StubTransport {
        StubTransport(stopsAtBodyLimit: stopsAtBodyLimit) { request in
            (body, try httpResponse(statusCode, url: request.url ?? baseURL, headers: headers))
        }
    }

    /// Answers after a minute, unless its task is cancelled first: a server that keeps the client waiting.
    static let stalling = StubTransport { _ in
        try await Task.sleep(nanoseconds: 60_000_000_000)
        return (Data("[]".utf8), try httpResponse(200))
    }

    /// Holds every request at `gate` until the test opens it for the URL's last path component, then answers `200`
    /// with that name as the body.
    ///
    /// The gate ignores cancellation, as a transport may. `Gate.resource("a")` loads `…/a`.
    static func gated(by gate: Gate) -> StubTransport {
        StubTransport { request in
            let name = request.url?.lastPathComponent ?? ""
            try await gate.pass(name)
            return (Data(name.utf8), try httpResponse(200, url: request.url ?? baseURL, headers: [:]))
        }
    }
}

/// What a ``StubTransport`` was asked.
actor RequestLog {
    /// The requests, in order.
    private(set) var requests: [URLRequest] = []
    /// The body limit each request came with, `nil` where the transport was asked for the whole body.
    private(set) var bodyLimits: [Int?] = []

    func record(_ request: URLRequest, bodyLimit: Int?) {
        requests.append(request)
        bodyLimits.append(bodyLimit)
    }
}
