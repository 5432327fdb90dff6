import Hummingbird

extension Router {
    /// Adds `GET /echo?id=…`, which answers `{"id":"…"}` and the header `X-Echo-Id: …` without touching the store:
    /// a cheap endpoint for load tests that match each response to its request.
    func addEchoRoutes() {
        get("/echo") { request, _ in
            guard let id = request.uri.queryParameters["id"].map(String.init) else {
                throw APIError(status: .badRequest, code: "missing_parameter", reason: "Missing query parameter id")
            }
            return try Response.json(EchoBody(id: id), headers: [echoIDHeader: id])
        }
    }
}

/// The header `GET /echo` repeats its `id` in. (Hummingbird re-exports `HTTPFields` but not `HTTPField`.)
private let echoIDHeader = HTTPFields.Element.Name("X-Echo-Id")!
