import Foundation

extension Resource where A == Void {
    /// Creates a resource whose response body doesn't matter: a `DELETE`, or any request answered with
    /// `204 No Content`.
    ///
    /// Success is decided by the status code alone (``acceptableStatusCodes``, `2xx` by default). The body is
    /// ignored, never parsed: a `DELETE` that echoes the deleted record succeeds just as one that answers with
    /// nothing. An unacceptable status still throws, with the body kept in the ``WebserviceError``. No header fields
    /// are added, and a body in `method` is sent as it is.
    ///
    /// ```swift
    /// try await webservice.load(Resource<Void>(url: episodeURL, method: .delete))
    /// ```
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method and its body bytes, sent unchanged. Defaults to `GET`.
    ///   - headers: Header fields to send. Defaults to none.
    public init(url: URL, method: HTTPMethod<Data> = .get, headers: [String: String] = [:]) {
        self.init(url: url, method: method, headers: headers, parse: { _ in })
    }

    /// Creates a resource that sends `Body` as JSON and ignores the response body.
    ///
    /// Use it for a `PUT`, `POST` or `PATCH` whose answer you don't need, such as `204 No Content`. The body is
    /// encoded once, here; the response body is ignored as with `Resource<Void>(url:method:headers:)`. A `Data` body
    /// is not encoded: it goes to that initializer, which sends the bytes as they are.
    ///
    /// ```swift
    /// let save = try Resource<Void>(url: settingsURL, method: .put(settings))
    /// ```
    ///
    /// The request carries `Content-Type: application/json` and `Accept: application/json` (for error bodies)
    /// unless `headers` names those fields.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method carrying the model to encode as the body.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - encoder: The encoder for the request body. Defaults to a plain `JSONEncoder`.
    /// - Throws: ``WebserviceError/encoding(_:)`` with the `EncodingError` when the body can't be encoded, for
    ///   example a `Double.nan` field.
    public init<Body: Encodable>(
        url: URL,
        method: HTTPMethod<Body>,
        headers: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) throws(WebserviceError) {
        let encoded = try method.encoded(with: encoder)
        self.init(url: url, method: encoded, headers: Self.jsonHeaders(headers, sendsBody: encoded.body != nil))
    }
}
