import Foundation

extension Resource where A: Decodable & SendableMetatype {
    /// Creates a `GET` resource whose property-list body, XML or binary, decodes into `A`.
    ///
    /// It mirrors the JSON ``init(get:headers:decoder:)``; the decoder's label names the format:
    ///
    /// ```swift
    /// let settings = Resource<Settings>(get: settingsURL, propertyListDecoder: PropertyListDecoder())
    /// ```
    ///
    /// The request carries `Accept: application/x-plist` unless `headers` names an `Accept` field. A body that is not
    /// a property list, or doesn't fit `A`, makes the parse throw a `DecodingError`; so does one that nests arrays and
    /// dictionaries more than 512 levels deep (`dataCorrupted`), which is checked before decoding, as deeper nesting
    /// could overflow the stack.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - propertyListDecoder: The decoder for the response body; it reads XML and binary property lists alike.
    public init(get url: URL, headers: [String: String] = [:], propertyListDecoder: PropertyListDecoder) {
        self.init(url: url, method: .get, headers: headers, propertyListDecoder: propertyListDecoder)
    }

    /// Creates a resource with any method, whose body bytes are sent as they are, and whose property-list response
    /// decodes into `A`.
    ///
    /// Encode a property-list body yourself; the request then carries `Content-Type: application/x-plist`:
    ///
    /// ```swift
    /// let encoder = PropertyListEncoder()
    /// encoder.outputFormat = .binary
    /// let save = Resource<Settings>(
    ///     url: settingsURL, method: .put(try encoder.encode(settings)), propertyListDecoder: PropertyListDecoder())
    /// ```
    ///
    /// The request carries `Accept: application/x-plist` and, with a body, `Content-Type: application/x-plist`,
    /// unless `headers` names those fields. The response is checked for nesting as in
    /// ``init(get:headers:propertyListDecoder:)``.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method and its body bytes, sent unchanged.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - propertyListDecoder: The decoder for the response body; it reads XML and binary property lists alike.
    public init(
        url: URL,
        method: HTTPMethod<Data>,
        headers: [String: String] = [:],
        propertyListDecoder: PropertyListDecoder
    ) {
        var fields = headers
        let names = Set(headers.keys.map { $0.lowercased() })
        if !names.contains("accept") {
            fields["Accept"] = "application/x-plist"
        }
        if method.body != nil, !names.contains("content-type") {
            fields["Content-Type"] = "application/x-plist"
        }
        self.init(
            url: url, method: method, headers: fields,
            parse: { data in
                try PropertyListNesting.check(data)
                return try propertyListDecoder.decode(A.self, from: data)
            })
    }
}
