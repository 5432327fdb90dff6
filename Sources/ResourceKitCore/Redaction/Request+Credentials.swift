import Foundation
internal import ResourceKitSupport

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

extension Request {
    /// This redirect's request, keeping every header field when it stays on `original`'s origin (scheme, host and
    /// port) and only the safe ones (``isSafeHeader(_:extra:)``) when it leaves it.
    public func redirected(from original: Request, extraSafeHeaders: Set<String> = []) -> Request {
        if Origin(url) == Origin(original.url) { return self }
        var stripped = self
        stripped.headerFields.removeAll { !isSafeHeader($0.name, extra: extraSafeHeaders) }
        return stripped
    }

    /// This request as it may go to an origin the caller didn't choose, with only the safe header fields.
    ///
    /// The fields are those of ``isSafeHeader(_:extra:)``; a transport adds no cookies of its own to it
    /// (``LoadContext/sendsCredentials``).
    public var withoutCredentials: Request {
        var request = self
        request.headerFields.removeAll { !isSafeHeader($0.name) }
        return request
    }
}
