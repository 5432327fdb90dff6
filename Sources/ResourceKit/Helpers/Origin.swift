import Foundation

/// Where a URL's credentials belong: its scheme, host and port (RFC 6454), in lowercase, with the scheme's default
/// port when the URL names none.
///
/// Redirects keep credential header fields only within one origin, and a credential is attached only to requests for
/// the origins it was issued for.
package struct Origin: Hashable, Sendable {
    package let scheme: String?
    package let host: String?
    package let port: Int?

    package init(_ url: URL) {
        scheme = url.scheme?.lowercased()
        host = url.host?.lowercased()
        port = url.port ?? ["http": 80, "https": 443][scheme ?? ""]
    }
}
