import Foundation
import Hummingbird

extension Router {
    /// Adds `/production/…`: endpoints that misbehave the way production servers do, for testing a client's retries,
    /// token refresh, revalidation and de-duplication.
    ///
    /// Every route counts per `:key`, so parallel tests that pick their own keys don't share counters, and each call
    /// keeps its own counts, so each server starts from zero. Pass it to
    /// ``EpisodesServer/start(host:port:tls:configure:)`` as `configure: { $0.addProductionRoutes() }`. In the
    /// answers, `n` is the number of requests that route has seen for the key, this one included.
    ///
    /// - `GET /production/retry-after/:key?seconds=`: the first request 429 with `Retry-After: <seconds>` (default 1)
    ///   and a JSON error body; later ones `{"attempt": n}`.
    /// - `GET` or `POST /production/unavailable/:key?failures=&status=`: the first `failures` requests (default 2)
    ///   `status` (default 503) with a JSON error body and no `Retry-After`; later ones `{"attempt": n}`.
    /// - `POST /production/token/:key?lifetime=`: `{"token": "token-<key>-<n>"}`, a new token for that many seconds
    ///   (default 1, fractions allowed) that replaces the last; `POST /production/token/:key/expire`: 204, expiring
    ///   the current token now.
    /// - `GET /production/protected/:key`: `{"attempt": n}`, counting 401s too, when `Authorization` is
    ///   `Bearer <the key's current token>` and it hasn't expired; otherwise 401 with `WWW-Authenticate: Bearer`.
    /// - `GET /production/etag/:key`: `{"version": v}`, v from 1, with `ETag: "v<v>"`, `Last-Modified` and
    ///   `Cache-Control: no-cache`; or 304 with no body, the `ETag` and `Cache-Control: max-age=60` when
    ///   `If-None-Match` lists the `ETag` (or `*`) or, without `If-None-Match`, when `If-Modified-Since` is no earlier
    ///   than `Last-Modified`. Version v was last modified v - 1 days after Mon, 01 Jan 2024 00:00:00 GMT.
    ///   `POST /production/etag/:key/bump`: 204, the next version; `GET /production/etag/:key/count`:
    ///   `{"full": f, "notModified": m}`, the 200s and 304s served.
    /// - `/production/last-modified/:key`, with its `/bump` and `/count`: the same without `ETag`, and
    ///   `Cache-Control: max-age=0` on the 200.
    /// - `GET /production/slow/:key?milliseconds=`: counts the request, waits that long (default 500), then
    ///   `{"attempt": n}`.
    /// - `GET /production/<route>/:key/count` for `retry-after`, `unavailable`, `slow` and `token`: `{"count": n}`, the
    ///   requests seen or, for `token`, the tokens issued.
    public func addProductionRoutes() {
        let ledger = ProductionLedger()
        get("/production/retry-after/:key") { request, context in
            let attempt = await ledger.increment(try context.counter("retry-after"))
            guard attempt > 1 else {
                let seconds = max(request.integer("seconds") ?? 1, 0)
                throw APIError(
                    status: .tooManyRequests,
                    code: "rate_limited",
                    reason: "Too many requests, retry after \(seconds)s",
                    headers: [.retryAfter: String(seconds)]
                )
            }
            return try Response.json(["attempt": attempt])
        }
        let unavailable: @Sendable (Request, Context) async throws -> Response = { request, context in
            let attempt = await ledger.increment(try context.counter("unavailable"))
            guard attempt > request.integer("failures") ?? 2 else {
                let code = request.integer("status").flatMap { (400...599).contains($0) ? $0 : nil } ?? 503
                throw APIError(
                    status: HTTPResponse.Status(code: code), code: "unavailable", reason: "Down for attempt \(attempt)")
            }
            return try Response.json(["attempt": attempt])
        }
        get("/production/unavailable/:key", use: unavailable)
        post("/production/unavailable/:key", use: unavailable)
        post("/production/token/:key") { request, context in
            let seconds = request.uri.queryParameters["lifetime"].flatMap { Double(String($0)) } ?? 1
            let lifetime = Duration.seconds(seconds.isFinite ? max(seconds, 0) : 1)
            let key = try context.parameters.require("key")
            let token = await ledger.issueToken(counter: try context.counter("token"), key: key, lifetime: lifetime)
            return try Response.json(["token": token])
        }
        post("/production/token/:key/expire") { _, context in
            await ledger.expireToken(counter: try context.counter("token"))
            return Response(status: .noContent)
        }
        get("/production/protected/:key") { request, context in
            let attempt = await ledger.increment(try context.counter("protected"))
            let authorization = request.headers[.authorization]
            if let reason = await ledger.refusal(of: authorization, counter: try context.counter("token")) {
                throw APIError(
                    status: .unauthorized, code: "unauthorized", reason: reason, headers: [.wwwAuthenticate: "Bearer"])
            }
            return try Response.json(["attempt": attempt])
        }
        addRevalidationRoutes("etag", ledger: ledger, fullCacheControl: "no-cache", sendsETag: true)
        addRevalidationRoutes("last-modified", ledger: ledger, fullCacheControl: "max-age=0", sendsETag: false)
        get("/production/slow/:key") { request, context in
            let attempt = await ledger.increment(try context.counter("slow"))
            try await Task.sleep(for: .milliseconds(max(request.integer("milliseconds") ?? 500, 0)))
            return try Response.json(["attempt": attempt])
        }
        for route in ["retry-after", "unavailable", "slow", "token"] {
            get("/production/\(route)/:key/count") { _, context in
                let count = await ledger.count(try context.counter(route))
                return try Response.json(["count": count])
            }
        }
    }

    /// Adds `GET /production/<route>/:key`, `POST …/bump` and `GET …/count`: a versioned resource for conditional
    /// requests, its 200s sent with `fullCacheControl` and its 304s with `max-age=60`.
    private func addRevalidationRoutes(
        _ route: String,
        ledger: ProductionLedger,
        fullCacheControl: String,
        sendsETag: Bool
    ) {
        get("/production/\(route)/:key") { request, context in
            let counter = try context.counter(route)
            let version = await ledger.count(counter + "/bumps") + 1
            let eTag = sendsETag ? #""v\#(version)""# : nil
            let modified = lastModified(version: version)
            var headers: HTTPFields = [:]
            headers[.eTag] = eTag
            if request.isNotModified(eTag: eTag, lastModified: modified) {
                _ = await ledger.increment(counter + "/notModified")
                headers[.cacheControl] = "max-age=60"
                return Response(status: .notModified, headers: headers)
            }
            _ = await ledger.increment(counter + "/full")
            headers[.cacheControl] = fullCacheControl
            headers[.lastModified] = httpDateFormatter().string(from: modified)
            return try Response.json(["version": version], headers: headers)
        }
        post("/production/\(route)/:key/bump") { _, context in
            _ = await ledger.increment(try context.counter(route) + "/bumps")
            return Response(status: .noContent)
        }
        get("/production/\(route)/:key/count") { _, context in
            let counter = try context.counter(route)
            let full = await ledger.count(counter + "/full")
            let notModified = await ledger.count(counter + "/notModified")
            return try Response.json(["full": full, "notModified": notModified])
        }
    }
}

/// The production routes' counts and tokens, under counter names such as `slow/<key>`.
private actor ProductionLedger {
    private var counts: [String: Int] = [:]
    private var tokens: [String: (value: String, expiry: ContinuousClock.Instant)] = [:]

    /// Counts one more under `counter`; returns the new count.
    func increment(_ counter: String) -> Int {
        counts[counter, default: 0] += 1
        return counts[counter, default: 0]
    }

    /// The count under `counter`: 0 until the first ``increment(_:)``.
    func count(_ counter: String) -> Int {
        counts[counter, default: 0]
    }

    /// Issues `token-<key>-<n>`, counted under `counter`, replacing the last token issued under it.
    func issueToken(counter: String, key: String, lifetime: Duration) -> String {
        let token = "token-\(key)-\(increment(counter))"
        tokens[counter] = (token, .now + lifetime)
        return token
    }

    /// Expires the current token issued under `counter`, if any.
    func expireToken(counter: String) {
        tokens[counter]?.expiry = .now
    }

    /// Why `authorization` is refused, or `nil` when it is `Bearer` and the current token under `counter`, unexpired.
    func refusal(of authorization: String?, counter: String) -> String? {
        guard let authorization else { return "Missing bearer token" }
        guard let token = tokens[counter], authorization == "Bearer \(token.value)" else {
            return "Not the current bearer token"
        }
        return ContinuousClock.now < token.expiry ? nil : "Expired bearer token"
    }
}

extension RequestContext {
    /// The counter name of this request's `:key` on `route`, such as `slow/test-1`.
    fileprivate func counter(_ route: String) throws -> String {
        "\(route)/\(try parameters.require("key"))"
    }
}

extension Request {
    /// Whether a conditional GET may answer 304: `If-None-Match` lists `eTag` or `*` (weak comparison), or, when
    /// there is no `If-None-Match`, `If-Modified-Since` is no earlier than `lastModified`.
    fileprivate func isNotModified(eTag: String?, lastModified: Date) -> Bool {
        let tags = headers[values: .ifNoneMatch].flatMap { $0.split(separator: ",") }.map { tag in
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
        }
        guard tags.isEmpty else { return tags.contains { $0 == "*" || $0 == eTag } }
        guard let since = headers[.ifModifiedSince].flatMap(httpDateFormatter().date(from:)) else { return false }
        return since >= lastModified
    }
}

/// When `version` of a revalidation resource was last modified: version 1 at Mon, 01 Jan 2024 00:00:00 GMT, each later
/// one a day later.
private func lastModified(version: Int) -> Date {
    Date(timeIntervalSince1970: 1_704_067_200 + Double(version - 1) * 86_400)
}

/// Formats and parses the HTTP-date form servers send, such as `Mon, 01 Jan 2024 00:00:00 GMT`.
private func httpDateFormatter() -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter
}
