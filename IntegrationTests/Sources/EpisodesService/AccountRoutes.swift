import Hummingbird

extension Router {
    /// Adds the account: `GET /account`, which requires `Authorization: Bearer swift-talk-token` or a session's token;
    /// `POST /account/session`, signing in: 201 with `{"token": "session-<n>"}`, a new session's token; and
    /// `DELETE /account/session`, signing out: 204, ending the session whose token `Authorization` carries.
    func addAccountRoutes() {
        let sessions = Sessions()
        get("/account") { request, _ in
            guard let authorization = request.headers[.authorization] else {
                throw unauthorized("Missing bearer token")
            }
            let isSession = await sessions.isOpen(authorization)
            guard authorization == "Bearer \(accountToken)" || isSession else {
                throw unauthorized("Invalid bearer token")
            }
            return try Response.json(AccountBody(name: "Chris", subscriber: true))
        }
        post("/account/session") { _, _ in
            let token = await sessions.signIn()
            return try Response.json(["token": token], status: .created)
        }
        delete("/account/session") { request, _ in
            guard let authorization = request.headers[.authorization], await sessions.signOut(authorization) else {
                throw unauthorized("No session with this bearer token")
            }
            return Response(status: .noContent)
        }
    }
}

/// The only token `GET /account` accepts besides a session's.
private let accountToken = "swift-talk-token"

/// The sessions signed in and not yet out, by their `Authorization` value.
private actor Sessions {
    private var opened = 0
    private var signedIn: Set<String> = []

    /// Signs in: a new session's token.
    func signIn() -> String {
        opened += 1
        let token = "session-\(opened)"
        signedIn.insert("Bearer \(token)")
        return token
    }

    /// Whether `authorization` is the `Authorization` of a session signed in and not yet out.
    func isOpen(_ authorization: String) -> Bool { signedIn.contains(authorization) }

    /// Signs the session of `authorization` out; `false` when there is none.
    func signOut(_ authorization: String) -> Bool { signedIn.remove(authorization) != nil }
}

/// A 401 that tells the client how to authenticate.
private func unauthorized(_ reason: String) -> APIError {
    APIError(
        status: .unauthorized,
        code: "unauthorized",
        reason: reason,
        headers: [.wwwAuthenticate: #"Bearer realm="swift-talk""#]
    )
}
