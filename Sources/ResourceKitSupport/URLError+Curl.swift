import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLError {
    /// A TLS failure as the `URLError` `URLSession` reports on Apple platforms: `code`, a readable description that
    /// ends with `reason`, and `underlying` as the `NSUnderlyingErrorKey`.
    ///
    /// - Parameters:
    ///   - code: The code, such as `.serverCertificateUntrusted`.
    ///   - reason: What the TLS library said, such as `SSL certificate problem: self-signed certificate`.
    ///   - underlying: The TLS library's or transport's own error.
    ///   - url: The URL of the failed request, if known.
    /// - Returns: The error to report.
    public static func tlsFailure(_ code: Code, reason: String, underlying: any Error, url: URL?) -> URLError {
        let summary =
            switch code {
            case .serverCertificateHasBadDate: "The certificate for this server has expired."
            case .serverCertificateNotYetValid: "The certificate for this server is not yet valid."
            case .serverCertificateHasUnknownRoot:
                "The certificate for this server was signed by an unknown certifying authority."
            case .serverCertificateUntrusted: "The certificate for this server is invalid."
            case .clientCertificateRequired: "The server requires a client certificate."
            case .clientCertificateRejected: "The server rejected the client certificate."
            default: "A TLS error occurred and a secure connection to the server cannot be made."
            }
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: "\(summary) (\(reason))",
            NSUnderlyingErrorKey: underlying,
        ]
        if let url {
            userInfo[NSURLErrorFailingURLErrorKey] = url
        }
        return URLError(code, userInfo: userInfo)
    }

    /// The code `URLSession` on Apple platforms uses for the TLS failure curl describes as `message`, or `nil` when
    /// `message` doesn't describe one.
    ///
    /// Linux `URLSession` (curl with OpenSSL) reports every TLS failure as `URLError(.unknown)` with curl's message,
    /// such as `SSL certificate problem: self-signed certificate`; the verification reasons are OpenSSL's
    /// `X509_verify_cert_error_string`s, spelt `self signed` before OpenSSL 3.
    ///
    /// - Parameter message: curl's error message.
    /// - Returns: The code, such as `.serverCertificateUntrusted`, or `nil`.
    public static func tlsCode(forCurlMessage message: String) -> Code? {
        let text = message.lowercased()
        if text.hasPrefix("ssl certificate problem:") {
            if text.contains("expired") { return .serverCertificateHasBadDate }
            if text.contains("not yet valid") { return .serverCertificateNotYetValid }
            if text.contains("certificate in certificate chain") { return .serverCertificateHasUnknownRoot }
            return .serverCertificateUntrusted
        }
        // A name mismatch ("SSL: no alternative certificate subject name matches target host name '…'") and
        // curl's generic text for a failed verification.
        if text.contains("does not match target host name") || text.contains("matches target host name")
            || text.contains("ssl peer certificate or ssh remote key was not ok")
        {
            return .serverCertificateUntrusted
        }
        if text.contains("certificate required") { return .clientCertificateRequired }
        // A read or write that ends early over TLS is a lost connection, not a handshake failure.
        if text.contains("ssl_read") || text.contains("ssl_write") { return nil }
        if text.contains("ssl") || text.contains("tls") { return .secureConnectionFailed }
        return nil
    }

    /// `error` with the code `URLSession` on Apple platforms uses, when it is Linux `URLSession`'s `URLError(.unknown)`
    /// for a TLS failure, a `Content-Encoding` curl can't decode, a body cut short, or a head or chunked body curl or
    /// FoundationNetworking can't parse or won't read (`.badServerResponse`, as for a status line that isn't HTTP,
    /// which it reports as `.unsupportedURL`); any other error as it is.
    ///
    /// The result keeps the original error as its `NSUnderlyingErrorKey`, and its failing URL.
    ///
    /// - Parameter error: An error a transport threw.
    /// - Returns: A `URLError` such as `.serverCertificateUntrusted`, `.cannotDecodeContentData`,
    ///   `.networkConnectionLost` or `.badServerResponse`, or `error`.
    public static func standardizing(_ error: any Error) -> any Error {
        guard let error = error as? URLError, let message = error.userInfo[NSLocalizedDescriptionKey] as? String,
            error.code == .unknown || (error.code == .unsupportedURL && isMalformedHead(message))
        else { return error }
        if let code = tlsCode(forCurlMessage: message) {
            return tlsFailure(code, reason: message, underlying: error, url: error.failingURL)
        }
        let standard: (Code, String)? =
            if message.contains("Unrecognized or bad HTTP Content or Transfer-Encoding") {
                (.cannotDecodeContentData, "The response's Content-Encoding is not one URLSession decodes")
            } else if message.hasPrefix("transfer closed with") {
                // curl's CURLE_PARTIAL_FILE: the connection closed before the body's announced end.
                (.networkConnectionLost, "The connection closed before the whole body arrived")
            } else if message == "Failed writing header" {
                // FoundationNetworking refused a header line, such as a status line without its reason phrase.
                (.badServerResponse, "The response's header is not one FoundationNetworking can parse")
            } else if isMalformedHead(message) {
                (.badServerResponse, "The response's head is not HTTP, or is larger than curl reads")
            } else if message.hasPrefix("Illegal or missing hexadecimal sequence in chunked-encoding") {
                (.badServerResponse, "The response's chunked body is not HTTP")
            } else {
                nil
            }
        guard let (code, summary) = standard else { return error }
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: "\(summary) (\(message))", NSUnderlyingErrorKey: error,
        ]
        userInfo[NSURLErrorFailingURLErrorKey] = error.failingURL
        return URLError(code, userInfo: userInfo)
    }

    /// Whether curl's `message` says the response's head isn't HTTP or is over its limit of 300 KB (curl 7.88): a
    /// status line curl reads as HTTP/0.9 or whose code isn't a number, a field without a colon or with a NUL byte,
    /// too many fields.
    private static func isMalformedHead(_ message: String) -> Bool {
        let prefixes = [
            "Received HTTP/0.9 when not allowed", "Unsupported response code in HTTP response",
            "Unsupported HTTP version", "Too large response headers", "Header without colon", "Nul byte in header",
            "Weird server reply", "Invalid Content-Length",
        ]
        return prefixes.contains { message.hasPrefix($0) }
    }
}
