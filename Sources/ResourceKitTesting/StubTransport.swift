import Foundation
import ResourceKit
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Transport` for your tests that answers by method and URL pattern, and records every request it is sent.
///
/// The first route whose method and pattern match answers; a request no route matches fails with
/// `URLError(.unsupportedURL)` naming it, so a test fails loudly rather than against a made-up response.
///
/// ```swift
/// let stub = StubTransport([
///     .init("GET", "/episodes", .fixture(Bundle.module.url(forResource: "episodes", withExtension: "json")!)),
///     .init("POST", "/episodes", .status(201)),
///     .init("*", "/episodes/*/media", .failure(.timedOut)),
/// ])
/// let episodes = try await Webservice(transport: stub).load(Episode.all)
/// #expect(await stub.requests.map(\.url.path) == ["/episodes"])
/// ```
public struct StubTransport: Transport {
    /// One rule: a method, a URL pattern, and the answer.
    public struct Route: Sendable {
        /// The method in uppercase, or `*` for any method.
        public var method: String
        /// The URLs the route answers.
        public var pattern: URLPattern
        /// What it answers.
        public var answer: StubAnswer

        /// A route for `method` (any letter case, or `*` for any method) and `pattern`.
        public init(_ method: String, _ pattern: String, _ answer: StubAnswer) {
            self.method = method.uppercased()
            self.pattern = URLPattern(pattern)
            self.answer = answer
        }

        func matches(_ method: String, _ url: URL) -> Bool {
            (self.method == "*" || self.method == method) && pattern.matches(url)
        }
    }

    /// The routes, tried in order.
    public var routes: [Route]
    private let log = Log()

    /// Creates a stub that answers with `routes`.
    public init(_ routes: [Route]) {
        self.routes = routes
    }

    /// The requests this stub and its copies were sent, in order.
    public var requests: [Request] {
        get async { await log.requests }
    }

    /// Answers `request` with the first matching route.
    public func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        var request = request
        // A file's bytes are the recorded body, as a server would receive them.
        if let file = request.body?.file {
            _ = try request.body?.length()  // a missing file or a directory fails as it does with every transport
            let bytes = try await offCooperativePool { try file.regularFileContents() }
            request.body = RequestBody(bytes)
            let count = Int64(bytes.count)
            context.progress?(TransferProgress(isUpload: true, bytes: count, expectedBytes: count))
        }
        await log.record(request)
        let (method, url) = (request.method, request.url)
        guard let route = routes.first(where: { $0.matches(method, url) }) else {
            // Named without its credentials, as ResourceKit's transports name a URL in their errors.
            let named = request.redactedURL
            let reason = "No stub route answers \(method) \(named?.absoluteString ?? "(no URL)")."
            throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason])
        }
        return try await route.answer.response(to: request, at: url)
    }

    private actor Log {
        var requests: [Request] = []
        func record(_ request: Request) { requests.append(request) }
    }
}

/// What a ``StubTransport`` route answers.
public struct StubAnswer: Sendable {
    private enum Kind: Sendable {
        case response(status: Int, headers: [String: String], body: Data)
        case fixture(URL, status: Int, headers: [String: String])
        case failure(URLError.Code)
        case computed(@Sendable (Request) async throws -> StubAnswer)
        case sequence([StubAnswer], Turns)
    }

    private let kind: Kind
    private var delay: TimeInterval = 0

    /// A response with `status`, `headers` and `body`.
    public static func status(_ status: Int, headers: [String: String] = [:], body: Data = Data()) -> StubAnswer {
        StubAnswer(kind: .response(status: status, headers: headers, body: body))
    }

    /// A JSON response with `text` as its body.
    public static func json(_ text: String, status: Int = 200) -> StubAnswer {
        .status(status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    /// A response whose body is the file at `url`, read when it is served; one that can't be read, or isn't a regular
    /// file, fails the load with a `URLError`.
    public static func fixture(
        _ url: URL,
        status: Int = 200,
        headers: [String: String] = ["Content-Type": "application/json"]
    ) -> StubAnswer {
        StubAnswer(kind: .fixture(url, status: status, headers: headers))
    }

    /// A transport failure, such as `.timedOut` or `.notConnectedToInternet`.
    public static func failure(_ code: URLError.Code) -> StubAnswer {
        StubAnswer(kind: .failure(code))
    }

    /// The answer `answer` returns for each request when it arrives; any error it throws is the transport's.
    ///
    /// ```swift
    /// .computed { request in
    ///     request.value(forHTTPHeaderField: "Authorization") == "Bearer t1" ? .json("{}") : .status(401)
    /// }
    /// ```
    public static func computed(_ answer: @escaping @Sendable (Request) async throws -> StubAnswer) -> StubAnswer {
        StubAnswer(kind: .computed(answer))
    }

    /// `answers` in turn, one a request, the last one repeating; copies of the answer share the turn.
    ///
    /// ```swift
    /// .sequence([.status(503), .status(503), .json("[]")])  // fails twice, then answers
    /// ```
    public static func sequence(_ answers: [StubAnswer]) -> StubAnswer {
        StubAnswer(kind: .sequence(answers, Turns()))
    }

    /// This answer, after `seconds`; a cancelled load stops waiting.
    public func delayed(by seconds: TimeInterval) -> StubAnswer {
        var delayed = self
        delayed.delay = seconds
        return delayed
    }

    /// The response this answer gives `request`, sent to `url`.
    func response(to request: Request, at url: URL) async throws -> (Response, ResponseBody) {
        if delay > 0 {
            try await Task.sleep(nanoseconds: UInt64(min(delay, 1_000_000) * 1_000_000_000))
        }
        let (status, headers, body): (Int, [String: String], Data)
        switch kind {
        case .response(let code, let fields, let data): (status, headers, body) = (code, fields, data)
        case .fixture(let file, let code, let fields):
            // Read as ResourceKit reads a file you name: off the cooperative pool, a regular file only, never a FIFO
            // waited on.
            (status, headers, body) = (code, fields, try await offCooperativePool { try file.regularFileContents() })
        case .failure(let code):
            let failing = request.redactedURL ?? url
            throw URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: failing])
        case .computed(let answer): return try await answer(request).response(to: request, at: url)
        case .sequence(let answers, let turns):
            guard !answers.isEmpty else {
                throw URLError(
                    .badServerResponse, userInfo: [NSLocalizedDescriptionKey: "An empty sequence answers nothing."])
            }
            return try await answers[min(await turns.next(), answers.count - 1)].response(to: request, at: url)
        }
        return (Response(statusCode: status, headers: headers, url: url), ResponseBody(body))
    }

    /// How many requests a ``sequence(_:)`` has answered.
    private actor Turns {
        private var count = 0

        func next() -> Int {
            defer { count += 1 }
            return count
        }
    }
}
