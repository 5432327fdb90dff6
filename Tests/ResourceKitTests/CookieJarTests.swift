import Foundation
import ResourceKit
import Synchronization
import Testing

@testable import ResourceKitBuiltIns

/// What a cookie jar keeps of a server's `Set-Cookie` fields and where it sends it back (RFC 6265), hostile input
/// included.
@Suite struct CookieJarTests {
    /// A clock the tests move forward.
    final class TestClock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(by seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    private let clock = TestClock()
    private var jar: CookieJar { CookieJar(now: { [clock] in clock.now }) }

    /// Stores `fields` in `jar` as the `Set-Cookie` fields of a response from `url`.
    private func receive(_ fields: [String], from url: String, in jar: CookieJar) throws {
        let fields = fields.map { HeaderField(name: "Set-Cookie", value: $0) }
        let url: URL = try #require(URL(string: url))
        jar.store(Response(statusCode: 200, headerFields: fields, url: url))
    }

    /// The names of the cookies `jar` sends to `url`, in the order it sends them.
    private func names(for url: String, in jar: CookieJar) throws -> [String] {
        jar.cookies(for: try #require(URL(string: url))).map(\.name)
    }

    @Test func aCookieWithoutDomainGoesBackToItsHostAlone() throws {
        let jar = jar
        try receive(["sid=1"], from: "https://api.example.com/login", in: jar)
        #expect(try names(for: "https://api.example.com/", in: jar) == ["sid"])
        #expect(try names(for: "http://api.example.com:8080/", in: jar) == ["sid"])
        #expect(try names(for: "https://www.example.com/", in: jar).isEmpty)
        #expect(try names(for: "https://sub.api.example.com/", in: jar).isEmpty)
        #expect(try jar.headerValue(for: #require(URL(string: "https://api.example.com/"))) == "sid=1")
    }

    @Test func aDomainCookieGoesToTheDomainAndItsSubdomains() throws {
        let jar = jar
        try receive(["sid=1; Domain=.Example.COM; Path=/"], from: "https://api.example.com/", in: jar)
        for url in ["https://example.com/", "https://www.example.com/a", "https://a.b.example.com/"] {
            #expect(try names(for: url, in: jar) == ["sid"], "\(url)")
        }
        for url in ["https://notexample.com/", "https://example.com.evil.net/", "https://com/"] {
            #expect(try names(for: url, in: jar).isEmpty, "\(url)")
        }
    }

    @Test(arguments: [
        ("https://api.example.com/", "Domain=com"),
        ("https://api.example.com/", "Domain=.com"),
        ("https://api.example.com/", "Domain=evil.com"),
        ("https://api.example.com/", "Domain=www.example.com"),
        ("https://api.example.com/", "Domain=i.api.example.com"),
        ("https://api.example.com/", "Domain=pi.example.com"),
        ("https://example.com/", "Domain=ample.com"),
        ("http://127.0.0.1/", "Domain=0.0.1"),
        ("http://127.0.0.1/", "Domain=1"),
        ("http://10.0.0.1/", "Domain=0.1"),
        ("http://[::1]/", "Domain=1"),
        ("http://foo.localhost/", "Domain=localhost"),
    ])
    func aDomainTheHostIsNotInOrWithoutADotIsRefused(url: String, attribute: String) throws {
        let jar = jar
        try receive(["sid=1; Path=/; \(attribute)"], from: url, in: jar)
        #expect(jar.cookies(for: try #require(URL(string: url))).isEmpty)
        #expect(jar.description == "CookieJar()")
    }

    @Test(arguments: ["http://127.0.0.1/", "http://localhost/"])
    func anIPAddressOrDotlessHostNamingItselfKeepsAHostOnlyCookie(url: String) throws {
        let jar = jar
        let address = try #require(URL(string: url))
        let host = try #require(address.host)
        try receive(["sid=1; Domain=\(host)"], from: url, in: jar)
        let cookie = try #require(jar.cookies(for: address).first)
        #expect(cookie.isHostOnly)
        #expect(cookie.domain == host)
    }

    @Test func theDefaultPathIsTheRequestsDirectory() throws {
        let jar = jar
        try receive(
            ["sid=1", "rel=2; Path=relative", "empty=3; Path="], from: "https://example.com/a/b/c?q=/x", in: jar)
        for path in ["/a/b", "/a/b/", "/a/b/c", "/a/b/x/y"] {
            #expect(try names(for: "https://example.com\(path)", in: jar) == ["sid", "rel", "empty"], "\(path)")
        }
        for path in ["/", "/a", "/a/bc", "/A/b"] {
            #expect(try names(for: "https://example.com\(path)", in: jar).isEmpty, "\(path)")
        }
        try receive(["top=1"], from: "https://example.com/login", in: jar)
        #expect(try jar.cookies(for: #require(URL(string: "https://example.com/x"))).map(\.path) == ["/"])
    }

    @Test func aPathMatchesItselfAndWhatIsBelowIt() throws {
        let jar = jar
        try receive(
            ["a=1; Path=/api", "b=2; Path=/api/", "c=3; Path=/api/v1", "d=4; Path=/"], from: "https://e.com/", in: jar)
        #expect(try names(for: "https://e.com/api", in: jar) == ["a", "d"])
        #expect(try names(for: "https://e.com/api/v1/items", in: jar) == ["c", "b", "a", "d"])
        #expect(try names(for: "https://e.com/apis", in: jar) == ["d"])
        #expect(try names(for: "https://e.com", in: jar) == ["d"])
    }

    @Test func aSecureCookieComesOnlyFromHTTPSAndGoesOnlyOverIt() throws {
        let jar = jar
        try receive(["plain=1; Secure"], from: "http://example.com/", in: jar)
        #expect(try names(for: "https://example.com/", in: jar).isEmpty)
        try receive(["sid=1; Secure; HttpOnly; SameSite=Strict"], from: "https://example.com/", in: jar)
        #expect(try names(for: "https://example.com/", in: jar) == ["sid"])
        #expect(try names(for: "http://example.com/", in: jar).isEmpty)
    }

    @Test func aCookieExpiresWithItsMaxAgeWhichWinsOverExpires() throws {
        let jar = jar
        try receive(
            [
                "short=1; Max-Age=60; Expires=Wed, 21 Oct 2099 07:28:00 GMT",
                "long=2; Expires=Wed, 21 Oct 2099 07:28:00 GMT",
            ],
            from: "https://example.com/", in: jar)
        #expect(try names(for: "https://example.com/", in: jar) == ["short", "long"])
        clock.advance(by: 61)
        #expect(try names(for: "https://example.com/", in: jar) == ["long"])
    }

    @Test(arguments: [
        "Max-Age=0", "Max-Age=-1", "Expires=Thu, 01 Jan 1970 00:00:00 GMT",
        "Max-Age=0; Expires=Wed, 21 Oct 2099 07:28:00 GMT",
    ])
    func anExpiredCookieRemovesTheStoredOne(attribute: String) throws {
        let jar = jar
        try receive(["sid=1", "other=2"], from: "https://example.com/", in: jar)
        try receive(["sid=gone; \(attribute)"], from: "https://example.com/", in: jar)
        #expect(try names(for: "https://example.com/", in: jar) == ["other"])
    }

    @Test(arguments: [
        ("Wed, 21 Oct 2015 07:28:00 GMT", 1_445_412_480.0),
        ("Wednesday, 21-Oct-15 07:28:00 GMT", 1_445_412_480),
        ("Wed Oct 21 07:28:00 2015", 1_445_412_480),
        ("21 oct 2015 7:28:0", 1_445_412_480),
        ("Sun, 29 Feb 2032 23:59:59 GMT", 1_961_711_999),
        ("Thu, 01 Jan 70 00:00:00 GMT", 0),
        ("01 January 1601 00:00:00", -11_644_473_600),
    ])
    func anExpiresDateIsReadInEachFormServersSend(text: String, seconds: TimeInterval) {
        #expect(SetCookie.cookieDate(Substring(text).utf8) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        "", "yesterday", "Wed, 32 Oct 2015 07:28:00 GMT", "Wed, 21 Oct 1600 07:28:00 GMT", "Wed, 21 Oct 2015 24:00:00",
        "Wed, 21 Foo 2015 07:28:00 GMT", "Wed, 21 Oct 2015 07:60:00 GMT", "Wed, 21 Oct 2015", "21 Oct 07:28:00",
        "Wed, 123 Oct 2015 07:28:00", "Wed, 21 Oct 20155 07:28:00", "Wed, 21 Oct 2015 007:28:00",
    ])
    func anExpiresDateThatCantBeReadIsIgnored(text: String) throws {
        #expect(SetCookie.cookieDate(Substring(text).utf8) == nil)
        let cookie = try #require(SetCookie("sid=1; Expires=\(text)", now: clock.now))
        #expect(cookie.expires == nil)
    }

    @Test func aHugeExpiresIsReadInOnePassOrIgnored() throws {
        for huge in [String(repeating: "9", count: 100_000), String(repeating: "1:1:1 ", count: 100_000)] {
            #expect(SetCookie.cookieDate(Substring(huge).utf8) == nil)
        }
        let dated = "Wed, 21 Oct 2015 07:28:00 GMT" + String(repeating: " x", count: 50_000)
        #expect(SetCookie.cookieDate(Substring(dated).utf8) == Date(timeIntervalSince1970: 1_445_412_480))
        let cookie = try #require(SetCookie("sid=1; Expires=\(dated)", now: clock.now))
        #expect(cookie.expires == nil)  // an attribute over 1 KiB
    }

    @Test(
        arguments: [
            ("60", 60.0), ("00060", 60), ("0000000000001", 1), ("00000000000000", -1), ("99999999999999999999999", nil),
            ("1e3", -1), ("", -1), ("+5", -1),
            ("6 0", -1),
        ] as [(String, TimeInterval?)])
    func aMaxAgeIsDigitsAndAHugeOneNeverExpires(text: String, seconds: TimeInterval?) throws {
        let cookie = try #require(SetCookie("sid=1; Max-Age=\(text)", now: clock.now))
        if text.allSatisfy({ $0 == "0" }), !text.isEmpty {
            #expect(cookie.expires == .distantPast)
        } else if let seconds {
            #expect(cookie.expires == (seconds < 0 ? nil : clock.now + seconds))
        } else {
            #expect(cookie.expires == .distantFuture)
        }
    }

    @Test(arguments: [
        "", "noequals", "=value", " =value", "sid=1\r\nX-Injected: 1", "sid=a\u{0}b", "s\nid=1", "sid=\u{7F}",
        "; sid=1",
    ])
    func aFieldWithoutANameOrWithAControlCharacterIsIgnored(field: String) throws {
        let jar = jar
        try receive([field], from: "https://example.com/", in: jar)
        #expect(try names(for: "https://example.com/", in: jar).isEmpty)
    }

    @Test func aCookieOver4KiBOrAnAttributeOver1KiBIsIgnored() throws {
        let jar = jar
        let huge = String(repeating: "x", count: 5_000)
        let longPath = "/" + String(repeating: "p", count: 1_100)
        try receive(["big=\(huge)", "ok=1; Path=\(longPath)"], from: "https://example.com/", in: jar)
        #expect(try jar.cookies(for: #require(URL(string: "https://example.com/"))).map(\.name) == ["ok"])
    }

    @Test func aHostileServerFillsItsDomainsShareAndNoMore() throws {
        let jar = jar
        try receive((0..<5_000).map { "c\($0)=\($0); Path=/" }, from: "https://evil.example/", in: jar)
        let kept = try names(for: "https://evil.example/", in: jar)
        #expect(kept == (4_950..<5_000).map { "c\($0)" })
        for host in 0..<100 {
            try receive((0..<50).map { "c\($0)=1" }, from: "https://h\(host).evil.example/", in: jar)
        }
        let all = jar.customMirror.children.first?.value as? [CookieJar.Cookie]
        #expect(all?.count == 3_000)
        // The oldest went first: the first domain's cookies.
        #expect(try names(for: "https://evil.example/", in: jar).isEmpty)
        #expect(try names(for: "https://h99.evil.example/", in: jar).count == 50)
    }

    @Test func aCookieFromHTTPCantReplaceOrShadowASecureOneOfItsName() throws {
        let jar = jar
        try receive(["sid=good; Secure"], from: "https://h/", in: jar)
        try receive(["sid=evil", "sid=x; Path=/api", "sid=gone; Max-Age=0"], from: "http://h/", in: jar)
        #expect(try jar.headerValue(for: #require(URL(string: "https://h/api/x"))) == "sid=good")
        // Another name, or another host's cookie of its name, is stored.
        try receive(["other=1"], from: "http://h/", in: jar)
        try receive(["sid=1"], from: "http://g/", in: jar)
        #expect(try jar.headerValue(for: #require(URL(string: "http://h/"))) == "other=1")
        #expect(try jar.headerValue(for: #require(URL(string: "http://g/"))) == "sid=1")
    }

    @Test func theJarsCookiesTakeAtMost8KiBOfARequest() throws {
        let jar = jar
        let value = String(repeating: "v", count: 3_000)
        try receive((0..<3).map { "c\($0)=\(value)" } + ["small=1"], from: "https://a.evil.example/", in: jar)
        try receive((0..<3).map { "d\($0)=\(value); Domain=evil.example" }, from: "https://a.evil.example/", in: jar)
        let url = try #require(URL(string: "https://a.evil.example/"))
        let field = try #require(jar.headerValue(for: url))
        #expect(field.utf8.count <= 8_192)
        // What doesn't fit is left out, in the sending order: the two oldest, then the small one.
        #expect(field.split(separator: "; ").map { $0.prefix { $0 != "=" } } == ["c0", "c1", "small"])
    }

    @Test func aCookieOfTheSameNameDomainAndPathReplacesTheStoredOneInItsPlace() throws {
        let jar = jar
        try receive(["a=1", "b=2", "a=3"], from: "https://example.com/", in: jar)
        #expect(try jar.headerValue(for: #require(URL(string: "https://example.com/"))) == "a=3; b=2")
        try receive(["a=4; Path=/x"], from: "https://example.com/", in: jar)
        #expect(try jar.headerValue(for: #require(URL(string: "https://example.com/x"))) == "a=4; a=3; b=2")
    }

    @Test func theJarsCookiesGoAfterTheRequestsOwn() throws {
        let jar = jar
        let url = try #require(URL(string: "https://example.com/"))
        #expect(jar.headerValue(for: url, after: "mine=0") == "mine=0")
        #expect(jar.headerValue(for: url, after: "") == nil)
        try receive(["sid=1"], from: url.absoluteString, in: jar)
        #expect(jar.headerValue(for: url, after: "mine=0") == "mine=0; sid=1")
    }

    @Test func removeAllForgetsEveryCookie() throws {
        let jar = jar
        try receive(["sid=1", "theme=dark; Domain=example.com"], from: "https://example.com/", in: jar)
        jar.removeAll()
        #expect(try names(for: "https://example.com/", in: jar).isEmpty)
    }

    @Test func descriptionAndDumpNameTheCookiesButNotTheirValues() throws {
        let jar = jar
        let secret = "s3cr3t-c00kie"
        try receive(
            ["sid=\(secret); Secure; Domain=example.com", "theme=\(secret)"], from: "https://example.com/", in: jar)
        var dumped = ""
        dump(jar, to: &dumped)
        let cookies = try jar.cookies(for: #require(URL(string: "https://example.com/")))
        var dumpedCookies = ""
        dump(cookies, to: &dumpedCookies)
        for text in [jar.description, dumped, "\(cookies)", dumpedCookies] {
            #expect(text.contains("sid") && text.contains("theme"))
            #expect(!text.contains(secret), "\(text)")
        }
        #expect(jar.description == "CookieJar(sid (.example.com/, secure), theme (example.com/))")
        #expect(cookies.map(\.value) == [secret, secret])
    }
}
