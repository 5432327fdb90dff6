import EpisodesService
import Foundation
import ResourceKit
import Testing

/// A transport with a ``CookieJar`` keeps the cookies the server sets, on a redirect too, and sends them back where
/// RFC 6265 and the credential rule allow; without one, it keeps none.
@Suite(.timeLimit(.minutes(1))) struct CookieTests {
    /// Loads `/cookies/set`, which sets `cookies` (each a `Set-Cookie` value) and, with `target`, redirects there.
    @discardableResult
    private func set(
        _ cookies: [String], at base: URL, redirectingTo target: String? = nil, status: Int = 302,
        through service: Webservice
    ) async throws -> [String: String] {
        var resource = Resource<[String: String]>(get: base / "cookies/set")
        resource.queryItems =
            cookies.map { URLQueryItem(name: "cookie", value: $0) }
            + (target.map { [URLQueryItem(name: "to", value: $0), .init(name: "status", value: "\(status)")] } ?? [])
        return try await service.load(resource)
    }

    /// The `Cookie` field a request to `/faults/headers` at `base` carried.
    private func cookieSent(to base: URL, headers: [String: String] = [:], through service: Webservice)
        async throws -> String?
    {
        try await service.load(Resource<[String: String]>(get: base / "faults/headers", headers: headers))["cookie"]
    }

    @Test(arguments: TransportKind.allCases, [302, 303, 307])
    func aCookieSetByARedirectIsSentOnTheRedirectedRequest(kind: TransportKind, status: Int) async throws {
        try await withServer { base in
            let service = kind.webservice(cookies: CookieJar())
            let echoed = try await set(
                ["sid=42; Path=/; HttpOnly"], at: base, redirectingTo: "/faults/headers", status: status,
                through: service)
            #expect(echoed["cookie"] == "sid=42")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aCookieIsSentOnTheNextLoadAfterTheRequestsOwn(kind: TransportKind) async throws {
        try await withServer { base in
            let service = kind.webservice(cookies: CookieJar())
            try await set(["sid=42; Path=/", "theme=dark; Path=/faults", "scoped=1"], at: base, through: service)
            // `scoped` has the default path, `/cookies`.
            #expect(try await cookieSent(to: base, through: service) == "theme=dark; sid=42")
            #expect(
                try await cookieSent(to: base, headers: ["Cookie": "mine=1"], through: service)
                    == "mine=1; theme=dark; sid=42")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aCookieIsNotSentToAnotherHostNorAfterARedirectThere(kind: TransportKind) async throws {
        try await withTwoServers { base, other in
            let other = try other.withHost("localhost")
            let jar = CookieJar()
            let service = kind.webservice(cookies: jar)
            let echoed = try await set(
                ["sid=42; Path=/"], at: base, redirectingTo: (other / "faults/headers").absoluteString,
                through: service)
            #expect(echoed["cookie"] == nil)
            #expect(try await cookieSent(to: other, through: service) == nil)
            #expect(try await cookieSent(to: base, through: service) == "sid=42")
            // The other host's cookies stay there too.
            try await set(["elsewhere=1; Path=/"], at: other, through: service)
            #expect(try await cookieSent(to: base, through: service) == "sid=42")
            #expect(try await cookieSent(to: other, through: service) == "elsewhere=1")
            #expect(try jar.cookies(for: #require(URL(string: "http://localhost/"))).map(\.name) == ["elsewhere"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theRequestsOwnCookieFollowsTheCredentialRuleOnARedirectAndTheJarsGoAfterIt(kind: TransportKind)
        async throws
    {
        try await withTwoServers { base, other in
            let other = try other.withHost("localhost")
            let service = kind.webservice(cookies: CookieJar())
            try await set(["sid=42; Path=/"], at: base, through: service)
            try await set(["elsewhere=1; Path=/"], at: other, through: service)
            for (target, expected) in [
                ("/faults/headers", "mine=1; sid=42"), ((other / "faults/headers").absoluteString, "elsewhere=1"),
            ] {
                var redirect = Resource<[String: String]>(get: base / "faults/redirect", headers: ["Cookie": "mine=1"])
                redirect.queryItems = [URLQueryItem(name: "to", value: target)]
                #expect(try await service.load(redirect)["cookie"] == expected, "\(target)")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func noCookieIsSentAfterRemoveAll(kind: TransportKind) async throws {
        try await withServer { base in
            let jar = CookieJar()
            let service = kind.webservice(cookies: jar)
            try await set(["sid=42; Path=/"], at: base, through: service)
            jar.removeAll()
            #expect(try await cookieSent(to: base, through: service) == nil)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aSecureCookieFromHTTPIsNeitherKeptNorSent(kind: TransportKind) async throws {
        try await withServer { base in
            let service = kind.webservice(cookies: CookieJar())
            try await set(["sid=42; Path=/; Secure", "plain=1; Path=/"], at: base, through: service)
            #expect(try await cookieSent(to: base, through: service) == "plain=1")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anExpiredCookieIsNotSent(kind: TransportKind) async throws {
        try await withServer { base in
            let service = kind.webservice(cookies: CookieJar())
            try await set(["sid=42; Path=/", "theme=dark; Path=/"], at: base, through: service)
            try await set(
                ["sid=; Path=/; Max-Age=0", "theme=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT", "new=1; Path=/"],
                at: base, through: service)
            #expect(try await cookieSent(to: base, through: service) == "new=1")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aResponseToTheJarsCookiesIsNotCachedSoNoneAnswersAfterSigningOut(kind: TransportKind) async throws {
        try await withServer { base in
            let jar = CookieJar()
            let service = kind.webservice(cookies: jar, cache: ResponseCache(byteLimit: 1 << 20))
            try await set(["sid=A; Path=/"], at: base, through: service)
            let cacheable = Resource<[String: Int]>(get: base / "faults/cacheable")
            let signedIn = try #require(try await service.load(cacheable)["served"])
            jar.removeAll()
            #expect(try await service.load(cacheable)["served"] == signedIn + 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aResponseIsNotCachedWhenTheJarAddedCookiesOnlyToARedirectedRequest(kind: TransportKind) async throws {
        try await withServer { base in
            let jar = CookieJar()
            let service = kind.webservice(cookies: jar, cache: ResponseCache(byteLimit: 1 << 20))
            // The cookie goes to `/faults/…` alone: not to `/cookies/set`, only to where it redirects.
            try await set(["sid=A; Path=/faults"], at: base, through: service)
            var redirected = Resource<[String: Int]>(get: base / "cookies/set")
            redirected.queryItems = [URLQueryItem(name: "to", value: "/faults/cacheable")]
            let signedIn = try #require(try await service.load(redirected)["served"])
            jar.removeAll()
            #expect(try await service.load(redirected)["served"] == signedIn + 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func withoutAJarNoCookieIsKept(kind: TransportKind) async throws {
        try await withServer { base in
            let service = kind.webservice()
            try await set(["sid=42; Path=/"], at: base, through: service)
            #expect(try await cookieSent(to: base, through: service) == nil)
            let echoed = try await set(["sid=42; Path=/"], at: base, redirectingTo: "/faults/headers", through: service)
            #expect(echoed["cookie"] == nil)
        }
    }
}
