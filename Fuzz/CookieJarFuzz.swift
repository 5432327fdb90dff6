import Foundation

/// A cookie jar fed a server's `Set-Cookie` fields (`CookieJar.store(_:)`), and the `Cookie` it sends back.
///
/// The first line is the URL the response came from (`https://a.b.example/p/q` when it isn't one); each further line is
/// a `Set-Cookie` value. The jar stores them all, as one response, and then a second time, as a second response.
///
/// Invariants: no cookie kept has a control character in its name or value, or is over 4 KiB, or has a path that
/// doesn't start with `/`; at most 50 cookies a domain and 3,000 in all; every cookie sent to a URL domain-matches its
/// host and path-matches its path, and a `Cookie` field holds no line break; an `Expires` date read is after 1600.
func fuzzCookieJar(_ input: inout FuzzInput) {
    let url = URL(string: input.line()).flatMap { $0.host == nil ? nil : $0 } ?? URL(string: "https://a.b.example/p/q")!
    let fields = input.rest.split(separator: 0x0A, omittingEmptySubsequences: false).map {
        HeaderField(name: "Set-Cookie", value: String(decoding: $0, as: UTF8.self))
    }
    let jar = CookieJar(now: { Date(timeIntervalSince1970: 1_800_000_000) })
    for _ in 0..<2 { jar.store(Response(statusCode: 200, headerFields: fields, url: url)) }
    for field in fields {
        if let date = SetCookie.cookieDate(Substring(field.value).utf8) {
            check(
                date >= Date(timeIntervalSince1970: -11_644_473_600), "\(field.value.debugDescription) read as \(date)")
        }
    }
    let kept = (jar.customMirror.children.first?.value as? [CookieJar.Cookie]) ?? []
    check(kept.count <= CookieJar.maxCookies, "\(kept.count) cookies kept")
    let domains = Dictionary(grouping: kept, by: \.domain)
    check(domains.values.allSatisfy { $0.count <= CookieJar.maxCookiesPerDomain }, "a domain over its limit")
    for cookie in kept {
        let text = cookie.name + cookie.value
        check(!text.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }, "a control character kept")
        check(
            (text + cookie.domain + cookie.path).utf8.count <= CookieJar.maxCookieSize, "a cookie over 4 KiB kept")
        check(cookie.path.hasPrefix("/") && !cookie.domain.isEmpty, "\(cookie) kept")
    }
    let host = url.host?.lowercased() ?? ""
    let targets =
        [url, URL(string: "https://example/")!] + kept.compactMap { URL(string: "https://\($0.domain)\($0.path)") }
    for target in targets.prefix(20) {
        let targetHost = target.host?.lowercased() ?? ""
        let path = target.path(percentEncoded: true).isEmpty ? "/" : target.path(percentEncoded: true)
        for cookie in jar.cookies(for: target) {
            check(
                cookie.isHostOnly ? targetHost == cookie.domain : CookieJar.domain(targetHost, matches: cookie.domain),
                "\(cookie) sent to \(targetHost)")
            check(CookieJar.path(path, matches: cookie.path), "\(cookie) sent to \(path)")
            check(CookieJar.domain(host, matches: cookie.domain), "\(cookie) kept from \(host)")
        }
        let field = jar.headerValue(for: target) ?? ""
        check(!field.utf8.contains(0x0A) && !field.utf8.contains(0x0D), "a line break in a Cookie field")
    }
}
