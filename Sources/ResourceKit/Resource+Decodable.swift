import Foundation

extension Resource where A: Decodable & SendableMetatype {
    /// Creates a `GET` resource whose JSON body decodes into `A`.
    ///
    /// The body is JSON even when `A` is `String` or `Data` (a JSON string; Base64 for `Data`); for plain text or raw
    /// bytes use `Resource<String>(url:)` or `Resource<Data>(url:)`. It doesn't throw, so it can be a `static let`:
    ///
    /// ```swift
    /// extension Episode {
    ///     static let all = Resource<[Episode]>(get: baseURL.appendingPathComponent("episodes"))
    /// }
    /// let mine = Resource<[Episode]>(get: url, headers: ["Authorization": "Bearer \(token)"])
    /// ```
    ///
    /// The request carries `Accept: application/json` unless `headers` names an `Accept` field.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - decoder: The decoder for the response body. Defaults to a plain `JSONDecoder`.
    public init(get url: URL, headers: [String: String] = [:], decoder: JSONDecoder = JSONDecoder()) {
        self.init(url: url, method: .get, headers: headers, decoder: decoder)
    }

    /// Creates a resource with any method, whose body bytes are sent as they are, and whose JSON response decodes
    /// into `A`.
    ///
    /// Use it for a `DELETE` that answers with the deleted model, or to send a body you encoded yourself:
    ///
    /// ```swift
    /// let removed = Resource<Episode>(url: episodeURL, method: .delete)
    /// let replaced = Resource<Episode>(url: episodeURL, method: .put(jsonBytes))
    /// ```
    ///
    /// The request carries `Accept: application/json` and, with a body, `Content-Type: application/json`, unless
    /// `headers` names those fields.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method and its body bytes, sent unchanged.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - decoder: The decoder for the response body. Defaults to a plain `JSONDecoder`.
    public init(
        url: URL,
        method: HTTPMethod<Data>,
        headers: [String: String] = [:],
        decoder: JSONDecoder = JSONDecoder()
    ) {
        let headers = Self.jsonHeaders(headers, sendsBody: method.body != nil)
        self.init(url: url, method: method, headers: headers, parse: { data in try decoder.decode(A.self, from: data) })
    }

    /// Creates a resource that sends `Body` as JSON and decodes the JSON response into `A`.
    ///
    /// Use it for `POST`, `PUT` and `PATCH`; the body is encoded once, here, so ``parse`` and
    /// `URLRequest(resource:)` stay cheap and synchronous. A `Data` body is not encoded: it goes to
    /// ``init(url:method:headers:decoder:)``, which sends the bytes as they are.
    ///
    /// ```swift
    /// let created = try Resource<Episode>(url: episodesURL, method: .post(newEpisode))
    /// ```
    ///
    /// The request carries `Content-Type: application/json` and `Accept: application/json` unless `headers` names
    /// those fields.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method carrying the model to encode as the body.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - encoder: The encoder for the request body. Defaults to a plain `JSONEncoder`.
    ///   - decoder: The decoder for the response body. Defaults to a plain `JSONDecoder`.
    /// - Throws: ``WebserviceError/encoding(_:)`` with the `EncodingError` when the body can't be encoded,
    ///   for example a `Double.nan` field.
    public init<Body: Encodable>(
        url: URL,
        method: HTTPMethod<Body>,
        headers: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder()
    ) throws(WebserviceError) {
        self.init(url: url, method: try method.encoded(with: encoder), headers: headers, decoder: decoder)
    }
}

extension HTTPMethod where Body: Encodable {
    /// The same method with its body encoded by `encoder`, as the `Encodable`-body initializers send it.
    func encoded(with encoder: JSONEncoder) throws(WebserviceError) -> HTTPMethod<Data> {
        do {
            return try map { try encoder.encode($0) }
        } catch {
            throw .encoding(error)
        }
    }
}
