import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// Where a URL's credentials belong: its scheme, host and port (RFC 6454), in lowercase, with the scheme's default
/// port when the URL names none.
///
/// Redirects keep credential header fields only within one origin, and a credential is attached only to requests for
/// the origins it was issued for.
public struct Origin: Hashable, Sendable {
    /// The scheme, lowercased.
    public let scheme: String?
    /// The host, lowercased.
    public let host: String?
    /// The port, or the scheme's default (80 for `http`, 443 for `https`).
    public let port: Int?

    /// The origin of `url`.
    public init(_ url: URL) {
        scheme = url.scheme?.lowercased()
        host = url.host?.lowercased()
        port = url.port ?? ["http": 80, "https": 443][scheme ?? ""]
    }
}
