//: [Previous](@previous)
//:
//: # JSON: parsing by hand with JSONSerialization
//:
//: Swift Talk's first resources parsed JSON by hand, and that is still the right tool for an API whose JSON doesn't
//: map neatly onto `Decodable`. `Resource(url:parseJSON:)` runs `JSONSerialization` on the body and hands your
//: closure the JSON value: a `[String: Any]`, `[Any]`, `String`, `NSNumber` or `NSNull`. The closure returns the
//: model, or `nil` when the JSON has the wrong shape.
import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

//: A failable initializer that reads one episode from a dictionary is the classic building block:
extension Episode {
    init?(json: [String: Any]) {
        guard let id = json["id"] as? String, let title = json["title"] as? String else { return nil }
        self.init(id: id, title: title)
    }
}

let episodesByHand = Resource<[Episode]>(url: baseURL.appendingPathComponent("episodes")) { json in
    guard let dictionaries = json as? [[String: Any]] else { return nil }
    return dictionaries.compactMap(Episode.init(json:))
}

//: The initializer asks for JSON on your behalf. A `GET` sends no body, so it gets no `Content-Type`:
print("headers:", episodesByHand.headers)
check(episodesByHand.headers["Accept"] == "application/json", "a JSON resource sends Accept: application/json")
check(episodesByHand.headers["Content-Type"] == nil, "a GET has no body, so no Content-Type")

//: ## Parsing fixture bytes
//:
//: `compactMap` skips the dictionaries `Episode(json:)` rejects; here the third entry has no title. Return `nil`
//: from the closure instead if one bad element should reject the whole response.
let fixture = Data(
    #"""
    [
        {"id": "1", "title": "Networking"},
        {"id": "2", "title": "Loading Resources"},
        {"id": "3"}
    ]
    """#.utf8
)

let episodes = try episodesByHand.parse(fixture)
print("parsed:", episodes.map(\.title))
check(
    episodes == [Episode(id: "1", title: "Networking"), Episode(id: "2", title: "Loading Resources")],
    "parseJSON turns the JSON array into episodes, skipping the one without a title"
)

//: Top-level fragments are allowed, so an endpoint that answers with a bare number is one line:
let count = Resource<Int>(url: baseURL.appendingPathComponent("episodes/count")) { json in json as? Int }
check(try count.parse(Data("42".utf8)) == 42, "a top-level number parses as well")

//: ## The wrong shape
//:
//: When the closure returns `nil`, the resource throws `DecodingError.typeMismatch`, as every format's parse does,
//: naming the model type it wanted and the kind of JSON it found. Here the server wrapped the array in an object:
let wrapped = Data(#"{"episodes": [{"id": "1", "title": "Networking"}]}"#.utf8)

do {
    let episodes = try episodesByHand.parse(wrapped)
    fail("an object is not an array of episodes, yet parse returned \(episodes)")
} catch DecodingError.typeMismatch(let expected, let context) {
    print("typeMismatch:", expected, "/", context.debugDescription)
    check(expected == [Episode].self, "the error names the expected model type")
    check(context.debugDescription.hasSuffix("found a top-level object."), "and the kind of JSON that arrived instead")
}

//: Bytes that aren't JSON at all, such as an HTML error page, fail earlier, with `JSONSerialization`'s error inside:
do {
    let episodes = try episodesByHand.parse(Data("<html>Service Unavailable</html>".utf8))
    fail("HTML is not JSON, yet parse returned \(episodes)")
} catch DecodingError.dataCorrupted(let context) {
    print("dataCorrupted:", context.debugDescription)
    check(context.underlyingError != nil, "bytes that aren't JSON throw dataCorrupted with JSONSerialization's error")
}

//: ## Through the Webservice
//:
//: Loaded through a `Webservice`, the same error arrives wrapped in `WebserviceError`, with the response it came from:
let webservice = Webservice(transport: StubTransport(routes: ["/episodes": StubResponse(body: wrapped)]))

let loadFailure = await webserviceError { try await webservice.load(episodesByHand) }
check(loadFailure.underlyingError is DecodingError, "the parse's error is the WebserviceError's underlying error")
check(loadFailure.body == wrapped, "the offending body is kept for the log")

allChecksPassed("JSON")
//: [Next](@next)
