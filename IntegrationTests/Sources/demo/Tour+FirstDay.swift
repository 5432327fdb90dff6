import Foundation
import ResourceKit
import SwiftTalk

// What a new user reaches for on the first day (issue 46), each step against the same server, one line each.

extension JSONDecoder {
    /// The app's one decoder.
    static var api: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension Resource where A: Decodable & SendableMetatype {
    /// The app's resources: relative to its web service's `baseURL`, decoded with its decoder, their errors with its
    /// model: said once, here.
    init(api path: String) {
        self = Resource(get: URL(string: path)!, decoder: .api).decodingAPIErrors(as: APIErrorBody.self, decoder: .api)
    }
}

extension Tour {
    /// The first day's conveniences, in the order a new user meets them.
    mutating func firstDay() async {
        print("What a new user reaches for on the first day:")
        let api = makeWebservice(baseURL, nil, [])
        await environment(api)
        await valueWithItsResponse(api)
        await appWideErrorModel(api)
        await statusesAsASet(api)
        await retryingByTheAppsRule()
        await signingInAndOut()
        await reconnectingEvents(api)
        await keepingCookies()
    }

    /// A relative resource goes to the web service's base URL: the environment is the web service's.
    private mutating func environment(_ api: Webservice) async {
        let all = Resource<[Episode]>(api: "episodes")
        _ = await transcript.step("GET episodes (relative)") { [baseURL] in
            let episodes = try await api.load(all)
            return ((), "\(episodes.count) episodes from \(baseURL.host ?? "")'s baseURL, the resource names no host")
        }
    }

    /// The value and the response's head together, from the same resource.
    private mutating func valueWithItsResponse(_ api: Webservice) async {
        let all = Resource<[Episode]>(api: "episodes").withResponse
        _ = await transcript.step("GET episodes (withResponse)") {
            let (episodes, response) = try await api.load(all)
            let type = response.value(forHTTPHeaderField: "Content-Type") ?? "no Content-Type"
            return (
                (), "\(episodes.count) episodes with HTTP \(response.statusCode), \(type), \(response.url?.path ?? "")"
            )
        }
    }

    /// The app's error model, said once in `init(api:)`, decodes a 404's body.
    private mutating func appWideErrorModel(_ api: Webservice) async {
        let missing = Resource<Episode>(api: "episodes/99")
        _ = await transcript.step("GET episodes/99 (app's error model)") {
            do {
                _ = try await api.load(missing)
                throw StepFailure("expected a 404")
            } catch let error as WebserviceError {
                guard case .apiError(let body as APIErrorBody, let response) = error.reason else { throw error }
                return ((), "HTTP \(response.statusCode) decoded by init(api:) as \(body.error): \(body.reason)")
            }
        }
    }

    /// Acceptable statuses as a set: a 409 the app expects is a value, not an error.
    private mutating func statusesAsASet(_ api: Webservice) async {
        _ = await transcript.step("GET faults/status/409 ([200, 409])") {
            var conflict = try Resource<Void>(url: URL(string: "faults/status/409")!)
            conflict.acceptableStatusCodes = [200, 409]
            let (_, response) = try await api.load(conflict.withResponse)
            return ((), "HTTP \(response.statusCode) accepted: acceptableStatusCodes = [200, 409]")
        }
    }

    /// A retry rule of the app's own: a 409 this API clears in a moment is retried too.
    private mutating func retryingByTheAppsRule() async {
        let rule = RetryPolicy(maxAttempts: 3, baseDelay: 0.05) { failed in
            failed.isTransient || failed.response?.statusCode == 409
        }
        let api = makeWebservice(baseURL, nil, [rule])
        struct Attempt: Decodable { var attempt: Int }
        var conflict = Resource<Attempt>(api: "production/unavailable/demo-\(UUID().uuidString.prefix(4))")
        conflict.queryItems = [URLQueryItem(name: "failures", value: "1"), URLQueryItem(name: "status", value: "409")]
        _ = await transcript.step("GET production/unavailable (409 once)") {
            let answer = try await api.load(conflict)
            guard answer.attempt == 2 else { throw StepFailure("expected attempt 2, got \(answer.attempt)") }
            return ((), "409, then answered on attempt 2: the app's rule retried the conflict")
        }
    }

    /// Signing in and out on one web service: the sign-in request sends no credential, the token is set, then
    /// forgotten.
    private mutating func signingInAndOut() async {
        struct SignedOut: Error {}
        let authentication = Authentication(for: [baseURL]) { _ in throw SignedOut() }
        let api = makeWebservice(baseURL, nil, [authentication])
        _ = await transcript.step("POST account/session, GET account") {
            var signIn = Resource<[String: String]>(
                url: URL(string: "account/session")!,
                parse: {
                    try JSONDecoder().decode([String: String].self, from: $0)
                })
            signIn.method = .post(Data())
            signIn.sendsCredentials = false
            let token = try await api.load(signIn)["token"] ?? ""
            try await authentication.setCredential("Bearer \(token)")
            let account = try await api.load(Resource<Account>(api: "account"))
            _ = try await api.load(Resource<Data>(url: URL(string: "account/session")!, method: .delete, parse: { $0 }))
            await authentication.removeCredential()
            do {
                _ = try await api.load(Resource<Account>(api: "account"))
                throw StepFailure("expected no credential after signing out")
            } catch let error as WebserviceError where error.underlyingError is SignedOut {
                return ((), "signed in as \(account.name) on the same web service; signed out, no credential is sent")
            }
        }
    }

    /// Server-sent events that connect again, as EventSource does, where the server broke the connection.
    private mutating func reconnectingEvents(_ api: Webservice) async {
        let ids = StreamingResource(
            Resource<Void>(url: URL(string: "streams/events?count=6&drop=2&retry=20")!, parse: { _ in }),
            serverSentEvents: { $0.id ?? "" })
        _ = await transcript.step("GET streams/events (broken every 2)") {
            var received: [String] = []
            for try await id in try await api.load(ids) { received.append(id) }
            guard received == ["1", "2", "3", "4", "5", "6"] else {
                throw StepFailure("expected events 1 to 6, each once, got \(received)")
            }
            return ((), "6 events, each once: it connected again with Last-Event-ID after each break")
        }
    }

    /// A cookie jar on the transport: a cookie set by a redirect goes with the redirected request, and is forgotten.
    private mutating func keepingCookies() async {
        let jar = CookieJar()
        let api = makeCookieWebservice(baseURL, jar)
        var login = Resource<[String: String]>(get: URL(string: "cookies/set")!)
        login.queryItems = [
            URLQueryItem(name: "cookie", value: "session=42; Path=/; HttpOnly"),
            URLQueryItem(name: "to", value: "/faults/headers"),
        ]
        _ = await transcript.step("GET cookies/set (302 with a cookie)") {
            let redirected = try await api.load(login)
            guard redirected["cookie"] == "session=42" else {
                throw StepFailure(
                    "expected the cookie on the redirected request, got \(redirected["cookie"] ?? "none")")
            }
            jar.removeAll()
            let after = try await api.load(Resource<[String: String]>(get: URL(string: "faults/headers")!))
            guard after["cookie"] == nil else { throw StepFailure("a cookie was sent after removeAll()") }
            return ((), "the 302's cookie came back on the redirected request; after removeAll(), none")
        }
    }
}
