import Foundation
import ResourceKitCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
    public func redirected(from original: Request, extraSafeHeaders: Set<String> = []) -> Request {
        if Origin(url) == Origin(original.url) { return self }
        var stripped = self
        stripped.headerFields.removeAll { !isSafeHeader($0.name, extra: extraSafeHeaders) }
        return stripped
    }
}
