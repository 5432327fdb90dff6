import Hummingbird

/// A failure the service reports as a JSON error body, such as `{"error":"not_found","reason":"No episode with id 99"}`.
///
/// Route handlers throw it; ``JSONErrorMiddleware`` turns it, and any other error, into the response.
struct APIError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    /// A stable, machine-readable code such as `not_found` or `invalid_body`.
    var code: String
    /// A sentence for people.
    var reason: String
    var headers: HTTPFields = [:]

    static func episodeNotFound(_ id: String) -> APIError {
        APIError(status: .notFound, code: "not_found", reason: "No episode with id \(id)")
    }

    static func invalidBody(_ reason: String) -> APIError {
        APIError(status: .unprocessableContent, code: "invalid_body", reason: reason)
    }

    static func malformedJSON(_ reason: String) -> APIError {
        APIError(status: .badRequest, code: "malformed_json", reason: reason)
    }

    /// The same JSON shape for an error Hummingbird threw, such as the 404 for an unknown route.
    init(_ error: some HTTPResponseError, request: Request) {
        status = error.status
        code = Self.code(for: error.status)
        let message = (error as? HTTPError)?.body
        if let message, !message.isEmpty {
            reason = message
        } else if error.status == .notFound {
            reason = "No route for \(request.method) \(request.uri.path)"
        } else {
            reason = error.status.reasonPhrase
        }
        headers = (error as? HTTPError)?.headers ?? [:]
    }

    init(status: HTTPResponse.Status, code: String, reason: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.reason = reason
        self.headers = headers
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }

    /// The error as a response with a JSON body.
    var response: Response {
        do {
            return try Response.json(ErrorBody(error: code, reason: reason), status: status, headers: headers)
        } catch {
            var fields = headers
            fields[.contentType] = Response.jsonContentType
            let body = #"{"error":"internal_error","reason":"The error body could not be encoded"}"#
            return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
    }

    /// The error code for a status Hummingbird produced by itself.
    private static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .badRequest: "bad_request"
        case .unauthorized: "unauthorized"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .contentTooLarge: "content_too_large"
        case .unprocessableContent: "invalid_body"
        case .internalServerError: "internal_error"
        default: "http_\(status.code)"
        }
    }
}
