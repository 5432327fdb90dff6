import Foundation
import Hummingbird

extension Router {
    /// Adds `/faults/…` endpoints that attack the client rather than fail: lies about lengths and encodings, and
    /// credentials sent back.
    ///
    /// - `GET /faults/lying-length?announce=&bytes=`: announces a `Content-Length` of `announce` bytes (default
    ///   5 000 000 000), sends `bytes` (default 4 096) in two writes, then drops the connection.
    /// - `GET /faults/encoded?encoding=`: a JSON body labelled with that `Content-Encoding` (default `br`) but sent as
    ///   it is, so only a client that ignores the label parses it.
    /// - `GET /faults/rejected/:code`: that 4xx status (401 with `WWW-Authenticate: Bearer`) and a JSON error body whose
    ///   reason repeats the request's `X-Api-Key` and `Authorization` values, as a careless server does:
    ///   `{"error":"rejected","reason":"Rejected X-Api-Key k with Authorization Bearer t"}`.
    func addHostileFaultRoutes() {
        get("/faults/lying-length") { request, _ in
            let announced = request.uri.queryParameters["announce"].map(String.init) ?? "5000000000"
            let half = max(request.integer("bytes") ?? 4_096, 2) / 2
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream", .contentLength: announced],
                body: ResponseBody { writer in
                    // Two writes, so the client gathers more than one buffer.
                    try await writer.write(ByteBuffer(repeating: UInt8(ascii: "x"), count: half))
                    try await Task.sleep(for: .milliseconds(50))
                    try await writer.write(ByteBuffer(repeating: UInt8(ascii: "y"), count: half))
                    try await FaultError.breakConnection(after: .milliseconds(50))
                }
            )
        }
        get("/faults/encoded") { request, _ in
            let encoding = request.uri.queryParameters["encoding"].map(String.init) ?? "br"
            var response = Response.raw(#"{"id": "1", "title": "Encoded"}"#, contentType: Response.jsonContentType)
            response.headers[.contentEncoding] = encoding
            return response
        }
        get("/faults/rejected/:code") { request, context in
            let code = try context.parameters.require("code", as: Int.self)
            guard (400...499).contains(code) else {
                throw APIError(status: .badRequest, code: "bad_status", reason: "Status \(code) is not 400...499")
            }
            let key = request.headers[apiKeyHeader] ?? "none"
            let authorization = request.headers[.authorization] ?? "none"
            return APIError(
                status: HTTPResponse.Status(code: code),
                code: "rejected",
                reason: "Rejected X-Api-Key \(key) with Authorization \(authorization)",
                headers: code == 401 ? [.wwwAuthenticate: "Bearer"] : [:]
            ).response
        }
    }
}

/// The header field `/faults/rejected` repeats. (Hummingbird re-exports `HTTPFields` but not `HTTPField`.)
private let apiKeyHeader = HTTPFields.Element.Name("X-Api-Key")!
