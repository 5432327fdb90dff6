import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The header fields known to carry no credential: content negotiation, the body's own description, caching, ranges
/// and `User-Agent`, on requests and responses.
///
/// It is an allowlist because a blocklist can't win: APIs carry credentials in fields of any name (`X-Auth`, `DPoP`,
/// `X-JWT-Assertion`, …). A redirect to another origin keeps only these fields, and error descriptions and `dump`
/// show only their values.
let safeHeaderNames: Set<String> = [
    "accept", "accept-charset", "accept-encoding", "accept-language", "accept-ranges", "age", "allow", "cache-control",
    "content-encoding", "content-language", "content-length", "content-range", "content-type", "date", "etag",
    "expires", "last-modified", "pragma", "range", "retry-after", "server", "user-agent", "vary", "via",
]

/// Whether a header field with this name is known to carry no credential, in any letter case: one of the names
/// <doc:Transports#Redirects-and-safe-header-fields> lists, or among the `extra` names, in ASCII lowercase, that a
/// caller declared safe.
public func isSafeHeader(_ name: String, extra: Set<String> = []) -> Bool {
    let name = asciiLowercased(name)
    return safeHeaderNames.contains(name) || extra.contains(name)
}

extension URLRequest {
    /// This redirect's request, keeping every header field when it stays on `original`'s origin (scheme, host and
    /// port) and only the safe ones (``isSafeHeader(_:extra:)``) when it leaves it.
    ///
    /// - Parameters:
    ///   - original: The request the redirect chain started from.
    ///   - extraSafeHeaders: Further header names, lowercased, that may reach another origin.
    /// - Returns: The request to send to the redirect's target.
    func redirected(from original: URLRequest?, extraSafeHeaders: Set<String> = []) -> URLRequest {
        if let target = url, let source = original?.url, Origin(target) == Origin(source) {
            return self
        }
        return keepingSafeHeaders(extra: extraSafeHeaders)
    }

    /// This request with only the header fields that are safe (``isSafeHeader(_:extra:)``).
    private func keepingSafeHeaders(extra: Set<String> = []) -> URLRequest {
        var stripped = self
        for name in (allHTTPHeaderFields ?? [:]).keys where !isSafeHeader(name, extra: extra) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }
}

extension Request {
    /// This redirect's request, keeping every header field when it stays on `original`'s origin (scheme, host and
    /// port) and only the safe ones (``isSafeHeader(_:extra:)``) when it leaves it.
    func redirected(from original: Request, extraSafeHeaders: Set<String> = []) -> Request {
        if Origin(url) == Origin(original.url) { return self }
        var stripped = self
        stripped.headerFields.removeAll { !isSafeHeader($0.name, extra: extraSafeHeaders) }
        return stripped
    }

    /// This request as it may go to an origin the caller didn't choose, with only the safe header fields.
    ///
    /// The fields are those of ``isSafeHeader(_:extra:)``; a transport adds no cookies of its own to it
    /// (``LoadContext/sendsCredentials``).
    var withoutCredentials: Request {
        var request = self
        request.headerFields.removeAll { !isSafeHeader($0.name) }
        return request
    }
}
