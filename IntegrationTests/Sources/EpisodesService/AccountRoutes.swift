import Hummingbird

extension Router {
    /// Adds `GET /account`, which requires `Authorization: Bearer swift-talk-token`.
    func addAccountRoutes() {
        get("/account") { request, _ in
            guard let authorization = request.headers[.authorization] else {
                throw unauthorized("Missing bearer token")
            }
            guard authorization == "Bearer \(accountToken)" else {
                throw unauthorized("Invalid bearer token")
            }
            return try Response.json(AccountBody(name: "Chris", subscriber: true))
        }
    }
}

/// The only token `GET /account` accepts.
private let accountToken = "swift-talk-token"

/// A 401 that tells the client how to authenticate.
private func unauthorized(_ reason: String) -> APIError {
    APIError(
        status: .unauthorized,
        code: "unauthorized",
        reason: reason,
        headers: [.wwwAuthenticate: #"Bearer realm="swift-talk""#]
    )
}
