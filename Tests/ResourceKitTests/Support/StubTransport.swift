import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers every request with a closure, so a test decides what the "server" does.
struct StubTransport: Transport {
    var respond: @Sendable (URLRequest) async throws -> (Data, URLResponse)

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await respond(request)
    }
}

extension StubTransport {
    /// Answers every request with `statusCode`, `body` and the request's URL.
    static func answering(
        _ statusCode: Int,
        body: Data,
        headers: [String: String] = ["Content-Type": "application/json"]
    ) -> StubTransport {
        StubTransport { request in
            let url = request.url ?? baseURL
            let response = HTTPURLResponse(
                url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
            guard let response else { throw URLError(.badServerResponse) }
            return (body, response)
        }
    }
}

extension StubTransport {
    /// Answers after a minute, unless its task is cancelled first: a server that keeps the client waiting.
    static let stalling = StubTransport { _ in
        try await Task.sleep(nanoseconds: 60_000_000_000)
        return (Data("[]".utf8), try httpResponse(200))
    }
}

/// Collects the requests a transport saw.
actor RequestLog {
    private(set) var requests: [URLRequest] = []

    func record(_ request: URLRequest) {
        requests.append(request)
    }
}

/// Keeps whoever waits on it waiting, even when their task is cancelled, until it is opened.
actor Latch {
    private(set) var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters = []
    }
}
