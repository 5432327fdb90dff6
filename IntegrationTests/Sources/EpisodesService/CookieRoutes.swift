import Foundation
import Hummingbird

extension Router {
    /// Adds `/cookies/…` endpoints that set cookies, for a client's cookie jar; `GET /faults/headers` echoes the
    /// `Cookie` a request carried.
    ///
    /// - `GET /cookies/set?cookie=&to=&status=`: a `Set-Cookie` field for each `cookie` (the field's whole value, such
    ///   as `sid=1; Path=/; Secure` or `sid=; Max-Age=0` to expire one), each apart; with `to`, a redirect there (status
    ///   `status`, 302 by default), otherwise `{}`.
    func addCookieRoutes() {
        get("/cookies/set") { request, _ in
            var headers = HTTPFields()
            headers[values: .setCookie] = request.uri.queryParameters[values: "cookie"].map(String.init)
            guard let target = request.uri.queryParameters["to"] else {
                return try Response.json([String: String](), headers: headers)
            }
            headers[.location] = String(target)
            headers[.contentLength] = "0"
            return Response(status: HTTPResponse.Status(code: request.integer("status") ?? 302), headers: headers)
        }
    }
}
