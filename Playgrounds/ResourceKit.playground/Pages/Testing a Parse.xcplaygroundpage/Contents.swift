//: [Previous](@previous)
//:
//: # Testing a parse
//:
//: Everything between "the bytes arrived" and "here is your model" is synchronous: `parse` turns bytes into a
//: model, and `value(from:response:)` adds what `Webservice.load` does around it, checking the status code and
//: wrapping errors. So a unit test needs no server, no `async` and no stub: fixture bytes and a response are enough.
//:
//: In a test target, with Swift Testing, such a test reads:
//:
//: ```swift
//: @Test func decodesTheEpisodeList() throws {
//:     let url = Episode.all.url
//:     let ok = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil))
//:     #expect(try Episode.all.value(from: fixture, response: ok) == expected)
//: }
//: ```
//:
//: This page makes the same assertions with `check`, which stops the page when a claim is false.
import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

//: ## The fixture
//:
//: In a test target the bytes usually come from a file in the bundle (`Bundle.module`); inline bytes work as well:
let fixture = Data(
    #"""
    [
        {"id": "1", "title": "Networking"},
        {"id": "2", "title": "Loading Resources"}
    ]
    """#.utf8
)
let expected = [Episode(id: "1", title: "Networking"), Episode(id: "2", title: "Loading Resources")]

//: ## Testing parse
//:
//: `parse(_:)` runs the resource's own parse on the fixture bytes, so the test exercises exactly the code the app
//: runs:
let parsed = try Episode.all.parse(fixture)
check(parsed == expected, "Episode.all.parse decodes the fixture")

//: Mapped resources are tested the same way, against the same fixture:
let count = Episode.all.map(\.count)
check(try count.parse(fixture) == 2, "a mapped resource parses the fixture through its transform")

//: ## Testing the whole response
//:
//: `value(from:response:)` checks the response before parsing. `HTTPURLResponse.stub(url:statusCode:)` (from the
//: playground's `Sources`) builds the response a server would send:
let ok = HTTPURLResponse.stub(url: Episode.all.url, statusCode: 200)
check(try Episode.all.value(from: fixture, response: ok) == expected, "a 200 with the fixture yields the episodes")

//: ## Testing the errors
//:
//: `value(from:response:)` declares `throws(WebserviceError)`, so a `do throws(WebserviceError)` block hands the
//: `catch` a `WebserviceError`, and the test can switch over its cases. With Swift Testing:
//:
//: ```swift
//: let error = #expect(throws: WebserviceError.self) { try Episode.all.value(from: body, response: notFound) }
//: #expect(error?.statusCode == 404)
//: ```
//:
//: A `404` with an error message in its body:
let notFoundBody = Data(#"{"error": "no such list"}"#.utf8)
let notFound = HTTPURLResponse.stub(url: Episode.all.url, statusCode: 404)

do throws(WebserviceError) {
    let episodes = try Episode.all.value(from: notFoundBody, response: notFound)
    fail("a 404 must not parse, yet it returned \(episodes)")
} catch {
    print("error:", error)
    guard case .unacceptableStatus(let response) = error.reason else {
        fail("expected unacceptableStatus, got \(error)")
    }
    check(response.statusCode == 404, "a 404 is .unacceptableStatus with the response's status code")
    check(response.value(forHTTPHeaderField: "content-type") == "application/json", "its header fields are kept")
    check(response.body.data == notFoundBody, "and so is its body, with the server's message")
    check(error.description.contains("no such list"), "the description quotes the start of the body")
}

//: A `200` whose JSON doesn't fit the model: `parse` is not even reached for a bad status, but here it runs and its
//: `DecodingError` is wrapped in `.parsing` along with the response:
let missingTitle = Data(#"[{"id": "1"}]"#.utf8)

do throws(WebserviceError) {
    let episodes = try Episode.all.value(from: missingTitle, response: ok)
    fail("an episode without a title must not parse, yet it returned \(episodes)")
} catch {
    print("error:", error)
    guard case .parsing(let underlying, let response) = error.reason,
        case .keyNotFound(let key, _)? = underlying as? DecodingError
    else {
        fail("expected .parsing with DecodingError.keyNotFound, got \(error)")
    }
    check(key.stringValue == "title", "the DecodingError names the missing key")
    check(response.statusCode == 200 && response.body.data == missingTitle, "the parse error keeps the response")
}

//: A response that isn't HTTP at all (a `file:` URL, say) is rejected before the body is looked at:
let notHTTP = URLResponse(url: Episode.all.url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)

do throws(WebserviceError) {
    let episodes = try Episode.all.value(from: fixture, response: notHTTP)
    fail("a non-HTTP response must be rejected, yet it returned \(episodes)")
} catch {
    print("error:", error)
    let isNonHTTP = if case .nonHTTPResponse = error.reason { true } else { false }
    check(isNonHTTP, "a plain URLResponse is .nonHTTPResponse")
}

//: ## Errors are safe to log
//:
//: A `401` often comes with credentials in its header fields. The error's description leaves header values out,
//: and its `dump` redacts the ones that carry credentials, so the error can go into a log as it is:
let unauthorized = HTTPURLResponse.stub(
    url: Episode.all.url,
    statusCode: 401,
    headers: ["Content-Type": "application/json", "Set-Cookie": "session=s3cr3t-playground-cookie"]
)

do throws(WebserviceError) {
    let episodes = try Episode.all.value(from: Data(#"{"error": "sign in"}"#.utf8), response: unauthorized)
    fail("a 401 must not parse, yet it returned \(episodes)")
} catch {
    var dumped = ""
    dump(error, to: &dumped)
    let headersLine = dumped.split(separator: "\n").first { $0.contains("headers:") } ?? "no headers in the dump"
    print("dump:", headersLine.trimmingCharacters(in: .whitespaces))
    check(error.statusCode == 401, "a 401 is reported with its status code")
    check(!error.description.contains("s3cr3t"), "the description doesn't print the cookie")
    check(!dumped.contains("s3cr3t") && dumped.contains("REDACTED"), "dump redacts it")
}

//: ## What the stub is for
//:
//: The tests above need no transport. A stub like the playground's `StubTransport` is for the rest: checking that
//: `Webservice.load` puts the pieces together. One round trip through it is enough:
let webservice = Webservice(transport: StubTransport(routes: ["/episodes": StubResponse(body: fixture)]))
check(try await webservice.load(Episode.all) == expected, "load returns what value(from:response:) returns")

allChecksPassed("Testing a Parse")
//: [Next](@next)
