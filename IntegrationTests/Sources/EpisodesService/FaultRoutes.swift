import Foundation
import Hummingbird

extension Router {
    /// Adds `/faults/…`: endpoints that misbehave on purpose, for the integration suite's fault catalog.
    ///
    /// Every fault is produced by Hummingbird itself; nothing here touches sockets. Pass it to
    /// ``EpisodesServer/start(host:port:configure:)`` as `configure: { $0.addFaultRoutes() }`.
    ///
    /// - `GET /faults/status/:code`: that status (1xx too, as if it were final), with a JSON error body for 4xx and 5xx.
    /// - `GET /faults/close-mid-body`: announces 1 000 bytes, sends 100, then drops the connection.
    /// - `GET /faults/short-body`: announces 1 000 bytes, sends 100, then keeps the connection open.
    /// - `GET /faults/stall?ms=`: sends nothing, not even headers, for that long (default a minute).
    /// - `GET /faults/trickle?bytes=&ms=`: sends a JSON string one byte at a time, one every `ms`.
    /// - `GET /faults/empty`, `GET /faults/no-content`: 200 with no body; 204.
    /// - `GET /faults/malformed-json`, `GET /faults/html`: a broken JSON body; an HTML page.
    /// - `GET /faults/latin1`: `Café crème` as ISO-8859-1 text, with that charset in its `Content-Type`.
    /// - `GET /faults/large?megabytes=&chunked=&ms=`: that many megabytes of a repeating byte pattern (`i % 251`);
    ///   with `chunked=1`, without a `Content-Length`; with `ms`, a pause that long after every 64 KiB.
    /// - `GET` or `POST /faults/redirect?to=&status=`: a redirect to `to`; `GET /faults/redirect-loop`: to itself.
    /// - `GET /faults/headers?next=`: the request's header fields as a JSON object with lower-cased names; with `next`,
    ///   also `Link: <next>; rel="next"`, as a page that leads there.
    /// - `GET /faults/query`: the raw query string and its decoded items, to check percent-encoding.
    /// - `GET /faults/repeated-fields`: ``repeatedFields``, names repeated and interleaved, and `{}`.
    /// - `GET /faults/cacheable?cache-control=`: `{"served": n}`, counting the requests it has served, with that
    ///   `Cache-Control` (default `max-age=60`).
    /// - `GET /faults/concurrent?ms=`: holds each request that long and answers `{"mostInFlight": n}`, the most
    ///   requests it has held at once so far.
    /// - Hostile responses: see ``addHostileFaultRoutes()``; cookies: see ``addCookieRoutes()``.
    public func addFaultRoutes() {
        let meter = FaultMeter()
        get("/faults/status/:code") { _, context in
            let code = try context.parameters.require("code", as: Int.self)
            guard (100...599).contains(code) else {
                throw APIError(status: .badRequest, code: "bad_status", reason: "Status \(code) is not 100...599")
            }
            let status = HTTPResponse.Status(code: code)
            guard code >= 400 else { return Response(status: status) }
            return APIError(status: status, code: "status_\(code)", reason: "You asked for \(code)").response
        }
        get("/faults/close-mid-body") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(contentLength: 1_000) { writer in
                    try await writer.write(ByteBuffer(repeating: UInt8(ascii: "x"), count: 100))
                    // Throwing from the body writer makes Hummingbird close the connection mid-body.
                    throw FaultError.droppedConnection
                }
            )
        }
        get("/faults/short-body") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json", .contentLength: "1000"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(repeating: UInt8(ascii: "x"), count: 100))
                    try await Task.sleep(for: .seconds(600))
                    try await writer.finish(nil)
                }
            )
        }
        get("/faults/stall") { request, _ in
            try await Task.sleep(for: .milliseconds(request.integer("ms") ?? 60_000))
            return try Response.json(["stalled": true])
        }
        get("/faults/trickle") { request, _ in
            let count = max(request.integer("bytes") ?? 20, 2)
            let interval = Duration.milliseconds(request.integer("ms") ?? 100)
            let text = "\"" + String(repeating: "x", count: count - 2) + "\""
            return Response(
                status: .ok,
                headers: [.contentType: Response.jsonContentType],
                body: ResponseBody(contentLength: count) { writer in
                    for byte in text.utf8 {
                        try await writer.write(ByteBuffer(bytes: [byte]))
                        try await Task.sleep(for: interval)
                    }
                    try await writer.finish(nil)
                }
            )
        }
        get("/faults/empty") { _, _ in
            Response(status: .ok, headers: [.contentType: Response.jsonContentType, .contentLength: "0"])
        }
        get("/faults/no-content") { _, _ in Response(status: .noContent) }
        get("/faults/malformed-json") { _, _ in
            Response.raw(#"{"id": "1", "title": "#, contentType: Response.jsonContentType)
        }
        get("/faults/latin1") { _, _ in
            // "Café crème" in ISO-8859-1: é and è are single bytes that are not valid UTF-8.
            let bytes: [UInt8] = [0x43, 0x61, 0x66, 0xE9, 0x20, 0x63, 0x72, 0xE8, 0x6D, 0x65]
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; charset=ISO-8859-1"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
            )
        }
        get("/faults/html") { _, _ in
            Response.raw("<html><body>Welcome to the captive portal</body></html>", contentType: "text/html")
        }
        get("/faults/large") { request, _ in
            let size = max(request.integer("megabytes") ?? 50, 0) * 1_048_576
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(contentLength: request.integer("chunked") == 1 ? nil : size) { writer in
                    let chunkSize = 251 * 261  // a multiple of the pattern's period, about 64 KiB
                    let chunk = ByteBuffer(bytes: (0..<chunkSize).map { UInt8($0 % 251) })
                    var sent = 0
                    while sent < size {
                        let length = min(chunkSize, size - sent)
                        try await writer.write(chunk.getSlice(at: 0, length: length) ?? chunk)
                        sent += length
                        if let pause = request.integer("ms") {
                            try await Task.sleep(for: .milliseconds(pause))
                        }
                    }
                    try await writer.finish(nil)
                }
            )
        }
        let redirect: @Sendable (Request, Context) async throws -> Response = { request, _ in
            let target = request.uri.queryParameters["to"].map(String.init) ?? "/faults/headers"
            let status = HTTPResponse.Status(code: request.integer("status") ?? 302)
            return Response(status: status, headers: [.location: target, .contentLength: "0"])
        }
        get("/faults/redirect", use: redirect)
        post("/faults/redirect", use: redirect)
        get("/faults/redirect-loop") { _, _ in
            Response(status: .found, headers: [.location: "/faults/redirect-loop", .contentLength: "0"])
        }
        get("/faults/headers") { request, _ in
            var fields: [String: String] = [:]
            for field in request.headers {
                let name = field.name.canonicalName
                fields[name] = fields[name].map { "\($0), \(field.value)" } ?? field.value
            }
            var headers: HTTPFields = [:]
            headers[linkHeader] = request.uri.queryParameters["next"].map { #"<\#($0)>; rel="next""# }
            return try Response.json(fields, headers: headers)
        }
        get("/faults/cacheable") { request, _ in
            let served = await meter.serve()
            let cacheControl = request.uri.queryParameters["cache-control"].map(String.init) ?? "max-age=60"
            return try Response.json(["served": served], headers: [.cacheControl: cacheControl])
        }
        get("/faults/concurrent") { request, _ in
            let most = await meter.enter()
            try? await Task.sleep(for: .milliseconds(request.integer("ms") ?? 100))
            await meter.leave()
            return try Response.json(["mostInFlight": most])
        }
        get("/faults/repeated-fields") { _, _ in
            var headers = HTTPFields()
            for (name, value) in repeatedFields {
                guard let name = HTTPFields.Element.Name(name) else { continue }
                headers.append(HTTPFields.Element(name: name, value: value))
            }
            return try Response.json([String: String](), headers: headers)
        }
        get("/faults/query") { request, _ in
            let items = request.uri.queryParameters.map { [String($0.key), String($0.value)] }
            return try Response.json(QueryEcho(raw: request.uri.query ?? "", items: items))
        }
        addHostileFaultRoutes()
        addTransportFaultRoutes()
        addCookieRoutes()
    }
}

/// The header fields `GET /faults/repeated-fields` sends, in this order: `X-Order` and `Set-Cookie` twice each,
/// interleaved, each cookie with an `Expires` date, which holds a comma.
public let repeatedFields = [
    ("X-Order", "first"), ("Set-Cookie", "a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/"),
    ("X-Order", "second"), ("Set-Cookie", "b=2; Expires=Thu, 22 Oct 2037 07:28:00 GMT; HttpOnly"),
]

/// Counts what the metered routes see: requests served, and requests in flight at once.
actor FaultMeter {
    private var served = 0
    private var inFlight = 0
    private var mostInFlight = 0

    /// Counts one more request served; returns the count.
    func serve() -> Int {
        served += 1
        return served
    }

    /// Counts a request in; returns the most in flight so far, this one included.
    func enter() -> Int {
        inFlight += 1
        mostInFlight = max(mostInFlight, inFlight)
        return mostInFlight
    }

    func leave() {
        inFlight -= 1
    }
}

/// What `GET /faults/query` answers.
private struct QueryEcho: Encodable {
    var raw: String
    var items: [[String]]
}

/// The error a fault throws to make Hummingbird drop the connection.
enum FaultError: Error {
    case droppedConnection

    /// Drops the response's connection as a network breaking would, after the bytes already written have left:
    /// dropped at once, the connection discards what is still queued in NIO's buffers.
    static func breakConnection(after pause: Duration = .milliseconds(100)) async throws -> Never {
        try await Task.sleep(for: pause)
        throw droppedConnection
    }
}

extension Request {
    /// The query parameter `name` as an integer, when present and numeric.
    func integer(_ name: String) -> Int? {
        uri.queryParameters[name[...]].flatMap { Int(String($0)) }
    }
}

extension Response {
    /// A 200 response with `body` as it is.
    static func raw(_ body: String, contentType: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: contentType], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
