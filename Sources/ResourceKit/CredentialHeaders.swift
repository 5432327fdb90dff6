import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Whether a header field carries a credential: the standard ones, and API keys, tokens, sessions and secrets.
///
/// ``WebserviceError`` redacts these in its descriptions, and ResourceKit's transports drop them from a redirect
/// to another origin.
func isCredentialHeader(_ name: String) -> Bool {
    let name = name.lowercased()
    return ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(name) || name.hasSuffix("-key")
        || ["token", "secret", "password", "apikey", "api-key", "session", "credential", "signature"].contains {
            name.contains($0)
        }
}

extension URLRequest {
    /// This redirect's request without credential headers, unless it stays on `original`'s origin (scheme, host and
    /// port), as browsers and curl do.
    func redirected(from original: URLRequest?) -> URLRequest {
        if let target = url, let source = original?.url, target.hasSameOrigin(as: source) {
            return self
        }
        var stripped = self
        for name in (allHTTPHeaderFields ?? [:]).keys where isCredentialHeader(name) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }
}

extension URL {
    /// Whether both URLs have the same scheme, host and port (a missing port means the scheme's default).
    fileprivate func hasSameOrigin(as other: URL) -> Bool {
        scheme?.lowercased() == other.scheme?.lowercased() && host?.lowercased() == other.host?.lowercased()
            && effectivePort == other.effectivePort
    }

    private var effectivePort: Int? {
        port ?? ["http": 80, "https": 443][scheme?.lowercased() ?? ""]
    }
}
