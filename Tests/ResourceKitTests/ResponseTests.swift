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

/// A response as a transport hands it over: `Retry-After` twice, in the order it arrived.
private func listed(_ statusCode: Int) -> Response {
    Response(
        statusCode: statusCode,
        headerFields: [
            .init(name: "Retry-After", value: "5"), .init(name: "X-Trace", value: "a"),
            .init(name: "x-trace", value: "b"),
        ], body: Data(),
        url: baseURL)
}

/// One response value from the transport to the parse; an `HTTPURLResponse` only for a parse that reads one.
@Suite struct ResponseTests {
    /// A `Content-Length` that isn't a number of bytes is no length, whether the response is listed or Foundation's.
    @Test(arguments: ["-1", "+-5", "12a", ""])
    func aContentLengthThatIsNotAByteCountIsNoLength(_ value: String) throws {
        let listed = Response(
            statusCode: 200, headerFields: [.init(name: "Content-Length", value: value)], body: Data(), url: baseURL)
        #expect(listed.contentLength == nil)
        let native = try #require(
            HTTPURLResponse(url: baseURL, statusCode: 200, httpVersion: nil, headerFields: ["Content-Length": value]))
        #expect(Response(native, body: Data()).contentLength == nil)
        let counted = Response(
            statusCode: 200, headerFields: [.init(name: "Content-Length", value: "12")], body: Data(), url: baseURL)
        #expect(counted.contentLength == 12)
    }

    @Test func parseOfTheBodyAloneAsksForNoResponse() throws {
        let resource = Resource<Int>(url: baseURL, parse: { $0.count })
        #expect(!resource.parseReadsResponse)
        #expect(!resource.map { $0 * 2 }.parseReadsResponse)
        var response = listed(200)
        response.body = ResponseBody(Data("abc".utf8))
        #expect(try resource.value(from: response) == 3)
    }

    @Test func parseThatTakesTheResponseGetsItsFields() throws {
        let resource = Resource<String?>(
            url: baseURL,
            parse: { _, response in
                response.map { "\($0.statusCode) \($0.value(forHTTPHeaderField: "X-Trace") ?? "-")" }
            })
        #expect(resource.parseReadsResponse)
        #expect(try resource.value(from: listed(201)) == "201 a, b")
    }

    @Test func parseAssignedLaterGetsTheResponse() throws {
        var resource = Resource<Int>(url: baseURL, parse: { _ in 0 })
        resource.parse = { _, response in response?.statusCode ?? -1 }
        #expect(try resource.value(from: listed(200)) == 200)
    }

    @Test func fieldsMatchInAnyCaseAndRepeatsJoinInOrder() throws {
        let response = listed(200)
        #expect(response.value(forHTTPHeaderField: "X-TRACE") == "a, b")
        #expect(response.value(forHTTPHeaderField: "Missing") == nil)
        #expect(response.headers["Retry-After"] == "5")
        let native = Response(try httpResponse(200, headers: ["X-Trace": "c"]), body: Data())
        #expect(native.value(forHTTPHeaderField: "x-trace") == "c")
        #expect(native.httpURLResponse()?.value(forHTTPHeaderField: "X-Trace") == "c")
    }

    @Test func errorsCarryTheResponse() throws {
        struct Unparsable: Error {}
        let resource = Resource<Int>(url: baseURL, parse: { _ in throw Unparsable() })
        let unacceptable = try #require(throws: WebserviceError.self) { try resource.value(from: listed(503)) }
        #expect(try requireCase(\WebserviceError.unacceptableStatus, of: unacceptable).headers["Retry-After"] == "5")
        let unparsed = try #require(throws: WebserviceError.self) { try resource.value(from: listed(200)) }
        #expect(
            try requireCase(\WebserviceError.parsing, of: unparsed).response.value(forHTTPHeaderField: "x-trace")
                == "a, b")
    }

    @Test func responseThatIsNotHTTPIsRefused() throws {
        let response = URLResponse(url: baseURL, mimeType: nil, expectedContentLength: 1, textEncodingName: nil)
        let error = try #require(throws: WebserviceError.self) {
            try Resource<Int>(url: baseURL, parse: { $0.count }).value(from: Data("a".utf8), response: response)
        }
        #expect(try requireCase(\.nonHTTPResponse, of: error) == Data("a".utf8))
    }

    /// A head of 100 000 fields, 50 000 names and one name 50 000 times, goes through a cache, a revalidating `304`
    /// of the same fields, a parse that reads them, and every view of the fields; in a child process, so a cost that
    /// grows with the square of the fields (billions of name comparisons, minutes) hangs one test until the watchdog
    /// ends it, while a linear one takes a second or two.
    @Test func aHeadOfAHundredThousandFieldsLoadsThroughACacheInLinearTime() async throws {
        guard let child = try await ChildProcess.run("fields", { try await Self.loadManyFields() }) else { return }
        #expect(child.exitedNormally, "\(child.output.suffix(2_000))")
        // The stored body, `v, v, …` (50 000 × `v`), and 50 003 names; two requests, the second revalidating.
        #expect(child.result == "ok 149998 50003; 149998 50003 dumped; 2 requests", "\(child.output.suffix(2_000))")
    }

    /// Loads a resource twice through a cache from ``ManyFieldsServer``: a `200` with an `ETag` that must be
    /// revalidated, then a `304`; and reads the fields of such a response directly.
    private static func loadManyFields() async throws -> String {
        let requests = Notes<Request>()
        let server = ManyFieldsServer(requests: requests)
        let webservice = Webservice(transport: server, cache: ResponseCache(byteLimit: 100_000_000))
        let resource = Resource<String>(url: baseURL) { data, response in
            let repeated = response?.value(forHTTPHeaderField: "x-repeated")?.utf8.count ?? 0
            return "\(String(decoding: data, as: UTF8.self)) \(repeated) \(response?.allHeaderFields.count ?? 0)"
        }
        _ = try await webservice.load(resource)
        let loaded = try await webservice.load(resource)
        let response = Response(statusCode: 200, headerFields: server.fields, body: Data(), url: baseURL)
        var dumped = ""
        dump(response, to: &dumped)
        let repeated = response.value(forHTTPHeaderField: "X-REPEATED")?.utf8.count ?? 0
        let direct = "\(repeated) \(response.headers.count)\(dumped.contains("X-Field-49999") ? " dumped" : "")"
        return "\(loaded); \(direct); \(await requests.all.count) requests"
    }

    /// Answers each request with 50 000 fields of distinct names and 50 000 of one name: `200`, `no-cache` and an
    /// `ETag` at first, and `304` to a request that sends the `ETag` back.
    private struct ManyFieldsServer: WholeTransport {
        let requests: Notes<Request>
        let fields =
            (0..<50_000).map { HeaderField(name: "X-Field-\($0)", value: "\($0)") }
            + Array(repeating: HeaderField(name: "X-Repeated", value: "v"), count: 50_000)
            + [.init(name: "Cache-Control", value: "no-cache"), .init(name: "ETag", value: #""v1""#)]

        func answer(_ request: Request) async throws -> (Data, URLResponse) { throw URLError(.unsupportedURL) }

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            await requests.append(request)
            let revalidates = request.value(forHTTPHeaderField: "If-None-Match") != nil
            let head = Response(
                statusCode: revalidates ? 304 : 200, headerFields: fields, body: Data(), url: request.url)
            return (head, ResponseBody(revalidates ? Data() : Data("ok".utf8)))
        }
    }

    /// `HTTPURLResponse` joins repeated fields with commas, `Set-Cookie` too: the fields one by one split its value
    /// again, one field per cookie, not at the comma of an `Expires` date; they are listed by name, in every run.
    @Test func theCookiesAnHTTPURLResponseJoinedAreFieldsOfTheirOwnAgain() throws {
        let cookies = "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/, b=2; HttpOnly,c=3"
        let native = Response(
            try httpResponse(200, headers: ["Set-Cookie": cookies, "X-Order": "first, second", "Age": "1"]),
            body: Data())
        let fields = native.headerFields.map { "\($0.name): \($0.value)" }
        #expect(
            fields == [
                "Age: 1", "Set-Cookie: a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/", "Set-Cookie: b=2; HttpOnly",
                "Set-Cookie: c=3", "X-Order: first, second",
            ])
        #expect(native.value(forHTTPHeaderField: "set-cookie") == cookies)
    }

    @Test(arguments: [
        ("", [""]), ("a=1", ["a=1"]), ("a=1, b=2", ["a=1", "b=2"]),
        (
            "a=1; Expires=Thursday, 01-Jan-70 00:00:00 GMT, b=2",
            ["a=1; Expires=Thursday, 01-Jan-70 00:00:00 GMT", "b=2"]
        ),
        ("a=x,y, b = 2 ,c", ["a=x,y", "b = 2 ,c"]), ("a=1,\u{301}b=2", ["a=1,\u{301}b=2"]),
    ])
    func aJoinedSetCookieValueSplitsOnlyWhereACookieBegins(joined: String, cookies: [String]) {
        #expect(HTTPSyntax.cookies(joinedIn: joined) == cookies)
    }
}
