//: [Previous](@previous)
//:
//: # POST, PUT and PATCH: sending a body
//:
//: `HTTPMethod` carries the request body in its case, so a `GET` can't have a body by accident and a `POST` can't
//: lack one. `Resource(url:method:)` encodes an `Encodable` body to JSON once, when you create the resource, and
//: decodes the JSON response into the model. Encoding can fail, so this initializer `throws(WebserviceError)`.
import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let episodesURL = baseURL.appendingPathComponent("episodes")
let newEpisode = Episode(id: "3", title: "POST Requests")

//: Sorted keys make the body bytes predictable, which is handy for printing and for tests:
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]

let create = try Resource<Episode>(url: episodesURL, method: .post(newEpisode), encoder: encoder)

//: ## Inspecting the request
//:
//: `URLRequest(resource:)` is exactly what `Webservice` sends. It is synchronous, so you can look at it (or test it)
//: without sending anything:
func show(_ request: URLRequest) {
    let method = request.httpMethod ?? "?"
    let url = request.url?.absoluteString ?? "?"
    print("\(method) \(url)")
    for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
        print("    \(name): \(value)")
    }
    if let body = request.httpBody {
        print("    body: \(String(decoding: body, as: UTF8.self))")
    }
}

let request = URLRequest(resource: create)
show(request)
check(request.httpMethod == "POST", "the method's name goes on the wire")
check(request.value(forHTTPHeaderField: "Content-Type") == "application/json", "a body is sent as JSON")
check(request.value(forHTTPHeaderField: "Accept") == "application/json", "and JSON is asked for in return")
check(request.httpBody == Data(#"{"id":"3","title":"POST Requests"}"#.utf8), "the body is the encoded episode")

//: A `GET` resource builds a request with neither a body nor a `Content-Type`:
let get = URLRequest(resource: Episode.all)
show(get)
check(get.httpMethod == "GET" && get.httpBody == nil, "a GET request has no body")
check(get.value(forHTTPHeaderField: "Content-Type") == nil, "and no Content-Type")

//: ## PUT and PATCH
//:
//: The other methods with a body work the same way. The body doesn't have to be the model: a `PATCH` can send just
//: the fields that change, and still decode the whole updated episode:
struct TitleChange: Encodable, Sendable {
    var title: String
}

let episode3URL = episodesURL.appendingPathComponent("3")
let replace = try Resource<Episode>(url: episode3URL, method: .put(newEpisode), encoder: encoder)
let rename = try Resource<Episode>(url: episode3URL, method: .patch(TitleChange(title: "Sending Data")))

show(URLRequest(resource: replace))
show(URLRequest(resource: rename))
check(replace.method.name == "PUT" && rename.method.name == "PATCH", "PUT and PATCH carry their names")
check(
    URLRequest(resource: rename).httpBody == Data(#"{"title":"Sending Data"}"#.utf8),
    "a PATCH body holds only the changed fields")

//: `DELETE` has no body and often no response body either. A `Resource<Void>` ignores the bytes; only the status
//: code counts:
let remove = try Resource<Void>(url: episode3URL, method: .delete)
show(URLRequest(resource: remove))
check(URLRequest(resource: remove).httpMethod == "DELETE", "DELETE is a method without a body")

//: ## Sending it
//:
//: This stub server plays a real one: it answers a `POST` with `201 Created` and echoes the stored episode back, and
//: answers a `DELETE` with `204 No Content`:
let webservice = Webservice(
    transport: StubTransport { request in
        switch request.method {
        case "POST": StubResponse(statusCode: 201, body: (try? request.body?.bytes()) ?? Data())
        case "DELETE": StubResponse(statusCode: 204, headers: [:], body: Data())
        default: StubResponse.notFound
        }
    }
)

let created = try await webservice.load(create)
print("created:", created)
check(created == newEpisode, "the server's answer decodes into the model")

//: Had the `DELETE` failed, `load` would throw here, and an error thrown at the top level stops the page:
try await webservice.load(remove)
print("deleted episode 3")

//: ## When the body can't be encoded
//:
//: JSON has no NaN, so `JSONEncoder` refuses `Double.nan`. The error surfaces when the resource is created, long
//: before anything is sent, as `WebserviceError.encoding` with the `EncodingError` inside:
struct Rating: Encodable, Sendable {
    var episodeID: String
    var stars: Double
}

do throws(WebserviceError) {
    let rate = try Resource<Episode>(
        url: episode3URL.appendingPathComponent("ratings"),
        method: .post(Rating(episodeID: "3", stars: .nan))
    )
    fail("NaN can't be encoded as JSON, yet the resource was created: \(rate.url)")
} catch {
    print("error:", error)
    let isEncoding = if case .encoding = error.reason { true } else { false }
    check(isEncoding, "an unencodable body throws WebserviceError.encoding")
    check(error.underlyingError is EncodingError, "with the EncodingError as its underlying error")
}

allChecksPassed("POST")
//: [Next](@next)
