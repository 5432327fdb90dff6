//: # Basics: a resource is a value
//:
//: ResourceKit follows the `Resource<A>` design from objc.io's *Swift Talk*. An endpoint is described by a plain
//: value: its URL, its HTTP method and header fields, and a `parse` function that turns the response's bytes into
//: an `A`. Building a resource does no I/O. Only `Webservice` goes to the network.
//:
//: > To run these pages in Xcode, open the package (`Package.swift`) first and then this playground, so that
//: > `import ResourceKit` finds the library that the active scheme builds. On Linux, run `Scripts/playgrounds.sh`.
//:
//: No page touches the internet. They load through `StubTransport`, a fake network defined in the playground's
//: `Sources` folder, together with the `Episode` model and the `check` helper that verifies each claim.
import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

//: ## A resource with a parse closure
//:
//: The plain initializer takes a URL and a closure from `Data` to the model; another one also hands the closure the
//: response. (Each common format has an initializer of its own, such as `Resource<Data>(url:)`; this page builds them
//: by hand.) The simplest model is the bytes themselves:
let logo = Resource<Data>(url: baseURL.appendingPathComponent("logo.png"), parse: { data in data })
print("logo:", logo.method.name, logo.url)
check(logo.method.name == "GET", "a resource is a GET unless you say otherwise")
check(logo.headers.isEmpty, "the plain initializer adds no header fields")

//: A parse closure can also examine the bytes and throw when they aren't what the endpoint promises. This one
//: reads a plain-text greeting:
struct NotUTF8: Error {}

let greeting = Resource<String>(url: baseURL.appendingPathComponent("greeting")) { data in
    guard let text = String(data: data, encoding: .utf8) else { throw NotUTF8() }
    return text
}

//: ## Calling parse directly
//:
//: The stored `parse` is an ordinary synchronous function that takes the response too; `parse(_:)` is what a test
//: calls with fixture bytes, and it gives back the model. No server, no `await`.
let logoBytes = Data([0x89, 0x50, 0x4E, 0x47])
check(try logo.parse(logoBytes) == logoBytes, "a Resource<Data> hands back the bytes unchanged")

let parsed = try greeting.parse(Data("Hello, Swift Talk!".utf8))
print("parsed:", parsed)
check(parsed == "Hello, Swift Talk!", "parse turns the bytes into the model")

do {
    let text = try greeting.parse(Data([0xFF, 0xFE]))
    fail("parse accepted bytes that aren't UTF-8: \(text)")
} catch {
    print("parse rejected [0xFF, 0xFE]:", error)
    check(error is NotUTF8, "parse throws its own error for bytes that aren't UTF-8")
}

//: ## Loading through a Webservice
//:
//: `Webservice` builds the request, sends it through a `Transport`, checks the status code and calls `parse`. In an
//: app the transport is a `URLSessionTransport`, which is what `Webservice()` uses. Here it is a stub that answers from
//: a table of paths (and with a 404 for any other path):
let webservice = Webservice(
    transport: StubTransport(routes: [
        "/greeting": StubResponse(headers: ["Content-Type": "text/plain"], body: "Hello from the stub server!"),
        "/garbled": StubResponse(headers: ["Content-Type": "text/plain"], body: Data([0xFF, 0xFE])),
    ])
)

let loaded = try await webservice.load(greeting)
print("loaded:", loaded)
check(loaded == "Hello from the stub server!", "load sends the request and parses the response body")

//: ## When loading fails
//:
//: Every failure arrives as a `WebserviceError`. It keeps what you need to react: the status code, the header
//: fields, the body, and the underlying error. A resource is a value with `var` properties, so pointing the same
//: parse at another path is one assignment:
var missing = greeting
missing.url = baseURL.appendingPathComponent("nowhere")

do {
    let text = try await webservice.load(missing)
    fail("expected a 404, got \(text)")
} catch let error as WebserviceError {
    print("error:", error)
    check(error.statusCode == 404, "a status outside 200..<300 is an error that keeps the status code")
    check(error.body == StubResponse.notFound.body, "the error keeps the response body, for the error message in it")
}

//: When the status is fine but `parse` throws, the parse's error is wrapped, together with the response:
var garbled = greeting
garbled.url = baseURL.appendingPathComponent("garbled")

//: (`webserviceError`, from the playground's `Sources`, runs a load that must fail and returns its error.)
let parseFailure = await webserviceError { try await webservice.load(garbled) }
check(parseFailure.underlyingError is NotUTF8, "a parse error arrives wrapped, with the parse's own error inside")
check(parseFailure.statusCode == 200, "and with the status code of the response it could not parse")

//: And when no response arrives at all, the transport's error is kept, so you can tell "offline" from a timeout:
let offline = Webservice(transport: StubTransport { _ in throw URLError(.notConnectedToInternet) })

let offlineFailure = await webserviceError { try await offline.load(greeting) }
check(
    (offlineFailure.underlyingError as? URLError)?.code == .notConnectedToInternet,
    "a transport failure keeps the URLError"
)
check(offlineFailure.statusCode == nil, "and has no status code, since no response arrived")

allChecksPassed("Basics")
//: [Next](@next)
