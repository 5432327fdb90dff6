import Foundation

extension Resource where A: Decodable & SendableMetatype {
    /// Creates a `GET` resource whose JSON body decodes into `A`.
    ///
    /// It doesn't throw, so it can be a `static let` on the model:
    ///
    /// ```swift
    /// extension Episode {
    ///     static let all = Resource<[Episode]>(get: URL(string: "https://api.example.com/episodes")!)
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
        self.init(url: url, method: .get, headers: Self.jsonHeaders(headers, sendsBody: false)) { data in
            try decoder.decode(A.self, from: data)
        }
    }

    /// Creates a resource that sends `Body` as JSON and decodes the JSON response into `A`.
    ///
    /// Use it for `POST`, `PUT` and `PATCH`; the body is encoded once, here, so ``parse`` and
    /// `URLRequest(resource:)` stay cheap and synchronous.
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
        let encoded: HTTPMethod<Data>
        do {
            encoded = try method.map { try encoder.encode($0) }
        } catch {
            throw .encoding(error)
        }
        self.init(url: url, method: encoded, headers: Self.jsonHeaders(headers, sendsBody: encoded.body != nil)) {
            data in try decoder.decode(A.self, from: data)
        }
    }
}
