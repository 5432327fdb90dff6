import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A canned HTTP response: what ``StubTransport`` answers with.
public struct StubResponse: Sendable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response's header fields.
    public var headers: [String: String]
    /// The response body.
    public var body: Data

    /// Creates a response from body bytes.
    ///
    /// - Parameters:
    ///   - statusCode: The HTTP status code. Defaults to `200`.
    ///   - headers: The header fields. Defaults to `Content-Type: application/json`.
    ///   - body: The body bytes.
    public init(
        statusCode: Int = 200,
        headers: [String: String] = ["Content-Type": "application/json"],
        body: Data
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// Creates a response whose body is `body` in UTF-8, such as a JSON literal.
    ///
    /// - Parameters:
    ///   - statusCode: The HTTP status code. Defaults to `200`.
    ///   - headers: The header fields. Defaults to `Content-Type: application/json`.
    ///   - body: The body text.
    public init(
        statusCode: Int = 200,
        headers: [String: String] = ["Content-Type": "application/json"],
        body: String
    ) {
        self.init(statusCode: statusCode, headers: headers, body: Data(body.utf8))
    }

    /// The `404` that ``StubTransport/init(routes:)`` answers for a path it doesn't know.
    public static let notFound = StubResponse(statusCode: 404, body: #"{"error": "not found"}"#)
}

/// A fake network for the playground: a ``Transport`` that answers every request with a canned response,
/// without touching the internet.
///
/// ```swift
/// let webservice = Webservice(transport: StubTransport(routes: ["/episodes": StubResponse(body: "[]")]))
/// ```
///
/// It prints each exchange (`→ GET /episodes ← 200, 2 bytes`) so the pages show what went over the "wire".
public struct StubTransport: Transport {
    /// Produces the response for a request; throwing simulates a transport failure such as being offline.
    public var respond: @Sendable (Request) throws -> StubResponse

    /// Creates a transport that answers with whatever `respond` returns for the request.
    ///
    /// - Parameter respond: Produces the response for a request; throw a `URLError` to simulate a network failure.
    public init(respond: @escaping @Sendable (Request) throws -> StubResponse) {
        self.respond = respond
    }

    /// Creates a transport that answers by URL path, and with ``StubResponse/notFound`` for any other path.
    ///
    /// - Parameter routes: The response for each URL path, such as `"/episodes"`.
    public init(routes: [String: StubResponse]) {
        self.init { request in routes[request.url.path] ?? .notFound }
    }

    /// Answers `request` with the canned response.
    ///
    /// - Parameters:
    ///   - request: The request the web service sends.
    ///   - context: The load's context, which the stub doesn't read.
    /// - Returns: The canned status and header fields, and the canned body.
    /// - Throws: What ``respond`` throws.
    public func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        let line = "  → \(request.method) \(request.url.path)"
        let stub: StubResponse
        do {
            stub = try respond(request)
        } catch {
            print("\(line)  ← failed: \(error)")
            throw error
        }
        print("\(line)  ← \(stub.statusCode), \(stub.body.count) bytes")
        return (Response(statusCode: stub.statusCode, headers: stub.headers, url: request.url), ResponseBody(stub.body))
    }
}

extension HTTPURLResponse {
    /// An HTTP/1.1 response for `url`, for feeding ``Resource/value(from:response:)`` without a network.
    ///
    /// - Parameters:
    ///   - url: The URL the response answers.
    ///   - statusCode: The HTTP status code.
    ///   - headers: The header fields. Defaults to `Content-Type: application/json`.
    /// - Returns: The response.
    public static func stub(
        url: URL,
        statusCode: Int,
        headers: [String: String] = ["Content-Type": "application/json"]
    ) -> HTTPURLResponse {
        let response = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
        guard let response else {
            fail("could not create an HTTPURLResponse for \(url) with status \(statusCode)")
        }
        return response
    }
}
