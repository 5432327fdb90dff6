import Foundation

extension Resource where A: Decodable & SendableMetatype {
    /// Creates a `GET` resource whose model is the value at `path` inside the JSON body.
    ///
    /// Use it when the model is wrapped in a larger document, such as the entries of a feed:
    ///
    /// ```swift
    /// // {"feed": {"title": "…", "entry": [{"id": "1", "title": "Networking"}, …]}}
    /// let entries = Resource<[Episode]>(get: feedURL, at: ["feed", "entry"])
    /// let newest = Resource<Episode>(get: feedURL, at: ["feed", "entry", 0])
    /// ```
    ///
    /// The body is decoded once, and only the value at `path` is decoded into `A`: the keys beside the path are
    /// never decoded, so they can't make the parse fail, and array elements before an index are skipped. There is no
    /// wrapper type to declare for the parts you don't need. The body must still be valid JSON throughout.
    ///
    /// Keys are matched after the decoder's `keyDecodingStrategy`, like a `CodingKeys` case. The request carries
    /// `Accept: application/json` unless `headers` names an `Accept` field.
    ///
    /// The parse throws `DecodingError.keyNotFound` when a key or index of the path is missing; its coding path is
    /// where the walk stopped (`.feed` when `feed` has no `entry`), and its description says so. Errors inside the
    /// model carry the full coding path, such as `.feed.entry[1].title`.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - path: Where the model is in the response body, such as `["feed", "entry"]`.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - decoder: The decoder for the response body. Defaults to a plain `JSONDecoder`.
    public init(
        get url: URL, at path: CodingPath, headers: [String: String] = [:], decoder: JSONDecoder = JSONDecoder()
    ) {
        self.init(url: url, method: .get, at: path, headers: headers, decoder: decoder)
    }

    /// Creates a resource with any method, whose body bytes are sent as they are, and whose model is the value at
    /// `path` inside the JSON response.
    ///
    /// ```swift
    /// let removed = Resource<Episode>(url: episodeURL, method: .delete, at: ["data"])
    /// ```
    ///
    /// The response is decoded as ``init(get:at:headers:decoder:)`` describes. The request carries
    /// `Accept: application/json` and, with a body, `Content-Type: application/json`, unless `headers` names those
    /// fields.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method and its body bytes, sent unchanged.
    ///   - path: Where the model is in the response body, such as `["data"]`.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - decoder: The decoder for the response body. Defaults to a plain `JSONDecoder`.
    public init(
        url: URL,
        method: HTTPMethod<Data>,
        at path: CodingPath,
        headers: [String: String] = [:],
        decoder: JSONDecoder = JSONDecoder()
    ) {
        self.init(url: url, method: method, headers: headers, decoder: decoder)
        parse = { data in try decoder.decode(A.self, from: data, at: path) }
    }

    /// Creates a resource that sends `Body` as JSON and whose model is the value at `path` inside the JSON response.
    ///
    /// Use it for a `POST`, `PUT` or `PATCH` whose answer wraps the model:
    ///
    /// ```swift
    /// // answers {"data": {"id": "4", "title": "New"}, "meta": {…}}
    /// let created = try Resource<Episode>(url: episodesURL, method: .post(draft), at: ["data"])
    /// ```
    ///
    /// The body is encoded once, here, as ``init(url:method:headers:encoder:decoder:)`` does; the response is decoded
    /// as ``init(get:at:headers:decoder:)`` describes.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method carrying the model to encode as the body.
    ///   - path: Where the model is in the response body, such as `["data"]`.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - encoder: The encoder for the request body. Defaults to a plain `JSONEncoder`.
    ///   - decoder: The decoder for the response body. Defaults to a plain `JSONDecoder`.
    /// - Throws: ``WebserviceError/encoding(_:)`` with the `EncodingError` when the body can't be encoded.
    public init<Body: Encodable>(
        url: URL,
        method: HTTPMethod<Body>,
        at path: CodingPath,
        headers: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder()
    ) throws(WebserviceError) {
        try self.init(url: url, method: method, headers: headers, encoder: encoder, decoder: decoder)
        parse = { data in try decoder.decode(A.self, from: data, at: path) }
    }
}
