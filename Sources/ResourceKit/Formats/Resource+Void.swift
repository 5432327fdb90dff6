import Foundation

extension Resource where A == Void {
    /// Creates a resource whose response body doesn't matter: success is decided by the status code alone.
    ///
    /// A `Data` body is sent as it is; any other body is encoded as JSON, once, here, and the request then carries
    /// `Content-Type` and `Accept: application/json` unless `headers` names them.
    ///
    /// ```swift
    /// try await webservice.load(Resource<Void>(url: episodeURL, method: .delete))
    /// let save = try Resource<Void>(url: settingsURL, method: .put(settings))
    /// ```
    ///
    /// - Throws: ``WebserviceError/encoding(_:)`` when the body can't be encoded.
    public init(
        url: URL,
        method: HTTPMethod<any Encodable & Sendable> = .get,
        headers: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) throws(WebserviceError) {
        let encodes = method.body.map { !($0 is Data) } ?? false
        let method = try method.encoded(with: encoder)
        self.init(
            url: url, method: method,
            headers: encodes ? headers.addingFormatDefaults("application/json", sendsBody: true) : headers,
            parse: { _ in })
    }
}
