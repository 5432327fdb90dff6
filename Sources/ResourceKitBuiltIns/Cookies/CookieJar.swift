import Foundation
import ResourceKitCore
internal import ResourceKitSupport
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cookies servers set, kept in memory and sent back as RFC 6265 says: pass one to a transport, and it keeps every
/// response's cookies, a redirect's included, and sends them on every request; see <doc:AuthenticatingRequests#Cookies>.
///
/// ```swift
/// let cookies = CookieJar()
/// let webservice = Webservice(transport: URLSessionTransport(cookies: cookies))
/// ```
///
/// Its ``description`` and `dump` name each cookie, never its value.
public final class CookieJar: Sendable, CustomStringConvertible, CustomReflectable {
    /// A cookie a server set: its name and value, and where it goes back.
    public struct Cookie: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
        /// The cookie's name.
        public let name: String
        /// The cookie's value: a credential, which ``description`` and `dump` leave out.
        public let value: String
        /// The host it came from, or the domain its `Domain` attribute named, lowercased.
        public let domain: String
        /// It goes to URLs whose path is this one or below it.
        public let path: String
        /// Whether it goes to ``domain`` alone, without its subdomains: it had no `Domain` attribute.
        public let isHostOnly: Bool
        /// Whether it goes over `https` alone.
        public let isSecure: Bool
        /// When it expires; `nil` for a cookie kept as long as the jar.
        public let expires: Date?
        /// The order it was first stored in, which an update keeps: older cookies go first, and are evicted first.
        let order: Int

        /// Its name, domain and path, without its value.
        public var description: String {
            "\(name) (\(isHostOnly ? "" : ".")\(domain)\(path)\(isSecure ? ", secure" : ""))"
        }

        /// Its parts but its value.
        public var customMirror: Mirror {
            Mirror(
                self,
                children: [
                    "name": name, "domain": domain, "path": path, "isHostOnly": isHostOnly, "isSecure": isSecure,
                    "expires": expires as Any,
                ])
        }
    }

    /// The most bytes a cookie's name, value, domain and path may hold together; a larger cookie is ignored.
    static let maxCookieSize = 4_096
    /// The most cookies kept for one domain; the oldest goes for a new one.
    static let maxCookiesPerDomain = 50
    /// The most cookies kept; the oldest goes for a new one.
    static let maxCookies = 3_000

    /// What makes a cookie the same as another, which it replaces (RFC 6265 §5.3, step 11).
    private struct Key: Hashable {
        let name: String
        let domain: String
        let path: String
    }

    private struct State {
        var cookies: [Key: Cookie] = [:]
        /// How many cookies were ever stored: the next cookie's order.
        var stored = 0
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Date

    /// Creates an empty jar.
    ///
    /// - Parameter now: The clock that tells which cookies expired; the system's by default.
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    /// Keeps the cookies of `response`'s `Set-Cookie` fields for its ``Response/url``, as a transport does for every
    /// response when it has a jar.
    ///
    /// A cookie whose `Domain` isn't its host's own domain or a parent of it, a `Domain` without a dot, a `Secure`
    /// cookie from `http`, a cookie from `http` named as a secure one it would replace or shadow, or a cookie over
    /// 4 KiB is ignored; an expired one removes the stored one. At most 50
    /// cookies a domain and 3,000 in all are kept, the oldest going first.
    public func store(_ response: Response) {
        guard let url = response.url, let host = Self.host(of: url) else { return }
        let fields = response.headerFields.filter { sameHeaderName($0.name, "Set-Cookie") }
        guard !fields.isEmpty else { return }
        let now = now()
        let fromHTTPS = url.scheme?.lowercased() == "https"
        let received = fields.compactMap { field -> (Key, SetCookie, isHostOnly: Bool)? in
            guard let cookie = SetCookie(field.value, now: now), !cookie.isSecure || fromHTTPS else { return nil }
            // Without a `Domain`, or with one an IP address or a dotless name (`localhost`) gives itself, the
            // cookie goes to its host alone; with a parent's, to the parent and every host under it.
            var (domain, hostOnly) = (host, true)
            if let named = cookie.domain {
                guard Self.domain(host, matches: named) else { return nil }
                if named.contains("."), !Self.isAddress(host) {
                    (domain, hostOnly) = (named, false)
                } else if named != host {
                    return nil
                }
            }
            let path = cookie.path ?? Self.defaultPath(of: url)
            let size = cookie.name.utf8.count + cookie.value.utf8.count + domain.utf8.count + path.utf8.count
            guard size <= Self.maxCookieSize else { return nil }
            return (Key(name: cookie.name, domain: domain, path: path), cookie, hostOnly)
        }
        state.withLock { state in
            for (key, cookie, hostOnly) in received {
                // From `http`, no cookie may replace, delete or shadow a secure one of its name (RFC 6265bis §5.7).
                if !fromHTTPS, Self.shadowsSecure(key, in: state) { continue }
                let old = state.cookies.removeValue(forKey: key)
                if let expires = cookie.expires, expires <= now { continue }
                state.cookies[key] = Cookie(
                    name: key.name, value: cookie.value, domain: key.domain, path: key.path, isHostOnly: hostOnly,
                    isSecure: cookie.isSecure, expires: cookie.expires, order: old?.order ?? state.stored)
                state.stored += 1
            }
            Self.evict(in: &state, now: now)
        }
    }

    /// Whether a stored secure cookie has `key`'s name, a domain that domain-matches its or that its matches, and a
    /// path its path-matches.
    private static func shadowsSecure(_ key: Key, in state: State) -> Bool {
        state.cookies.values.contains { stored in
            stored.isSecure && stored.name == key.name
                && (domain(stored.domain, matches: key.domain) || domain(key.domain, matches: stored.domain))
                && path(key.path, matches: stored.path)
        }
    }

    /// Past a domain's limit or the jar's, drops expired cookies, then the oldest of each domain over its limit, then
    /// the oldest of all.
    private static func evict(in state: inout State, now: Date) {
        func counts() -> [String: Int] {
            state.cookies.values.reduce(into: [:]) { counts, cookie in counts[cookie.domain, default: 0] += 1 }
        }
        guard state.cookies.count > maxCookies || counts().values.contains(where: { $0 > maxCookiesPerDomain }) else {
            return
        }
        state.cookies = state.cookies.filter { !($0.value.expires.map { $0 <= now } ?? false) }
        for (domain, count) in counts() where count > maxCookiesPerDomain {
            let oldest = state.cookies.filter { $0.value.domain == domain }.sorted { $0.value.order < $1.value.order }
            for (key, _) in oldest.prefix(count - maxCookiesPerDomain) { state.cookies[key] = nil }
        }
        guard state.cookies.count > maxCookies else { return }
        let oldest = state.cookies.sorted { $0.value.order < $1.value.order }
        for (key, _) in oldest.prefix(state.cookies.count - maxCookies) { state.cookies[key] = nil }
    }

    /// The cookies a request for `url` carries: those whose domain and path it matches, not expired, only over
    /// `https` for a secure one; longer paths first, then older cookies first.
    public func cookies(for url: URL) -> [Cookie] {
        guard let host = Self.host(of: url) else { return [] }
        let path = url.path(percentEncoded: true).isEmpty ? "/" : url.path(percentEncoded: true)
        let secure = url.scheme?.lowercased() == "https"
        let now = now()
        let matching = state.withLock { state in
            state.cookies.values.filter { cookie in
                !(cookie.expires.map { $0 <= now } ?? false)
                    && (cookie.isHostOnly ? host == cookie.domain : Self.domain(host, matches: cookie.domain))
                    && Self.path(path, matches: cookie.path) && (secure || !cookie.isSecure)
            }
        }
        return matching.sorted { ($0.path.utf8.count, -$0.order) > ($1.path.utf8.count, -$1.order) }
    }

    /// The value of the `Cookie` field a request for `url` carries, `name=value` pairs joined by `; `, after
    /// `field`, the request's own `Cookie`; `nil` when it has neither.
    ///
    /// The jar's cookies take at most 8 KiB of it: those that don't fit, in ``cookies(for:)``'s order, are left out,
    /// so that no domain can make every request too large for its server.
    public func headerValue(for url: URL, after field: String? = nil) -> String? {
        self.field(for: url, after: field).value
    }

    /// The most bytes of a `Cookie` field the jar's cookies take.
    static let maxHeaderSize = 8_192

    /// ``headerValue(for:after:)``, and whether the jar added any cookie to `field`.
    func field(for url: URL, after field: String?) -> (value: String?, added: Bool) {
        var pairs: [String] = []
        var size = 0
        for cookie in cookies(for: url) {
            let pair = "\(cookie.name)=\(cookie.value)"
            let grown = size + (pairs.isEmpty ? 0 : 2) + pair.utf8.count
            guard grown <= Self.maxHeaderSize else { continue }
            (pairs, size) = (pairs + [pair], grown)
        }
        let value = (((field?.nonEmpty).map { [$0] } ?? []) + pairs).joined(separator: "; ").nonEmpty
        return (value, !pairs.isEmpty)
    }

    /// Removes every cookie: call it when the user signs out.
    public func removeAll() {
        state.withLock { $0.cookies.removeAll() }
    }

    /// The cookies' names, domains and paths, without their values.
    public var description: String {
        "CookieJar(\(all.map(\.description).joined(separator: ", ")))"
    }

    /// The cookies, each without its value.
    public var customMirror: Mirror {
        Mirror(self, children: ["cookies": all])
    }

    /// Every cookie, oldest first.
    private var all: [Cookie] {
        state.withLock { $0.cookies.values.sorted { $0.order < $1.order } }
    }

    /// `url`'s host, lowercased; `nil` for a URL without one.
    private static func host(of url: URL) -> String? {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        return host
    }

    /// Whether `host` is `domain` or a subdomain of it (RFC 6265 §5.1.3); an IP address matches only itself.
    static func domain(_ host: String, matches domain: String) -> Bool {
        if host == domain { return true }
        return !isAddress(host) && host.utf8.count > domain.utf8.count
            && host.utf8.suffix(domain.utf8.count).elementsEqual(domain.utf8)
            && host.utf8.dropLast(domain.utf8.count).last == UInt8(ascii: ".")
    }

    /// Whether `host` is an IP address: an IPv6 one holds a colon, and no top-level domain is a number, as an IPv4
    /// address's last part is.
    static func isAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").last?.allSatisfy(\.isASCIIDigit) ?? true
    }

    /// Whether the request path `path` is `cookiePath` or below it (§5.1.4).
    static func path(_ path: String, matches cookiePath: String) -> Bool {
        guard path.utf8.starts(with: cookiePath.utf8) else { return false }
        return path.utf8.count == cookiePath.utf8.count || cookiePath.utf8.last == UInt8(ascii: "/")
            || path.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }

    /// The path a cookie without a `Path` goes to (§5.1.4): `url`'s path up to its last `/`, or `/`.
    static func defaultPath(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }
}

extension String {
    /// The string, or `nil` when it is empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

extension Character {
    /// Whether it is one of the digits 0 to 9.
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
