import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Resource where A == String {
    /// Creates a resource whose body is text in the charset the response names, or UTF-8.
    ///
    /// The parse reads the `charset` parameter of the response's `Content-Type`, such as
    /// `text/plain; charset=ISO-8859-1`, and decodes the body with it. Without one — and when a test calls ``parse``
    /// with bytes alone — the body is UTF-8; ``init(url:method:headers:defaultEncoding:)`` picks another default.
    ///
    /// ```swift
    /// let robots = Resource<String>(url: URL(string: "https://example.com/robots.txt")!)
    /// ```
    ///
    /// The parse never replaces a byte it can't decode: it throws ``TextResourceError/invalidBytes(encoding:)``, or
    /// ``TextResourceError/unknownCharset(_:)`` for a charset it doesn't know. It understands UTF-8, UTF-16
    /// (`utf-16` with or without a byte order mark, `utf-16be`, `utf-16le`), US-ASCII, ISO-8859-1, ISO-8859-2,
    /// windows-1250, windows-1251 and windows-1252, by their IANA names and aliases in any letter case; `utf-16`
    /// without a byte order mark is big-endian, and a byte order mark is never part of the text. No header fields are
    /// added, and a body in `method` is sent as it is.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method and its body bytes, sent unchanged. Defaults to `GET`.
    ///   - headers: Header fields to send. Defaults to none.
    public init(url: URL, method: HTTPMethod<Data> = .get, headers: [String: String] = [:]) {
        self.init(url: url, method: method, headers: headers, defaultEncoding: .utf8)
    }

    /// Creates a resource whose body is text in the charset the response names, or in `defaultEncoding`.
    ///
    /// Use it for servers that send text without a `charset` and don't mean UTF-8:
    ///
    /// ```swift
    /// let legacy = Resource<String>(url: feedURL, defaultEncoding: .isoLatin1)
    /// ```
    ///
    /// A `charset` in the response's `Content-Type` still wins, as `Resource<String>(url:method:headers:)` describes.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method and its body bytes, sent unchanged. Defaults to `GET`.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - defaultEncoding: The encoding of a body whose response names no charset, and of the bytes ``parse``
    ///     receives.
    public init(
        url: URL,
        method: HTTPMethod<Data> = .get,
        headers: [String: String] = [:],
        defaultEncoding: String.Encoding
    ) {
        self.init(
            url: url, method: method, headers: headers,
            parseResponse: { data, response in
                let charset = response?.value(forHTTPHeaderField: "Content-Type").flatMap(Charset.name(inContentType:))
                let encoding = try charset.map(Charset.encoding(named:)) ?? defaultEncoding
                return try Charset.decode(data, as: encoding)
            })
    }
}
