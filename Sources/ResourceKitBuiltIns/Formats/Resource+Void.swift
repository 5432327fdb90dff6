import Foundation
import ResourceKitCore
internal import ResourceKitSupport

extension Resource where A == Void {
    /// Creates a resource whose response body doesn't matter: success is decided by the status code alone.
    ///
    /// A `Data` body is sent as it is. A ``RequestBody`` form is sent as its own bytes with its `Content-Type`; any
    /// other body is encoded as JSON, with `Content-Type` and `Accept: application/json`. Encoding happens once, here,
    /// and `headers` wins over the fields it adds.
    ///
    /// ```swift
    /// try await webservice.load(Resource<Void>(url: episodeURL, method: .delete))
    /// let save = try Resource<Void>(url: settingsURL, method: .put(settings))
    /// ```
    ///
    /// - Throws: ``WebserviceError/Reason/encoding(_:)`` when the body can't be encoded.
    public init(
        url: URL,
        method: HTTPMethod<any Encodable & Sendable> = .get,
        headers: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) throws(WebserviceError) {
        let (method, contentType, file) = try method.encoded(with: encoder)
        let accept = contentType == "application/json" ? contentType : nil
        self.init(
            url: url, method: method, headers: headers.addingFormatDefaults(accept: accept, contentType: contentType),
            parse: { _ in })
        bodyFile = file
    }
}
