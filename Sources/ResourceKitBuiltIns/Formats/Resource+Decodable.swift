import Foundation
import ResourceKitCore
internal import ResourceKitSupport

extension Resource where A: Decodable & SendableMetatype {
    /// Creates a `GET` resource whose JSON body, or the value at `path` inside it, decodes into `A`.
    ///
    /// The request carries `Accept: application/json` unless `headers` names it. A `path` such as `["feed", "entry"]`
    /// decodes only the value there: each step is an object's key, or an array's index where the JSON has an array,
    /// such as `["items", "0"]`; see <doc:DefiningResources>.
    ///
    /// ```swift
    /// let all = Resource<[Episode]>(get: episodesURL)
    /// let entries = Resource<[Episode]>(get: feedURL, at: ["feed", "entry"])
    /// ```
    public init(
        get url: URL, at path: [String] = [], headers: [String: String] = [:], decoder: JSONDecoder = JSONDecoder()
    ) {
        self.init(
            url: url, headers: headers.addingFormatDefaults("application/json", sendsBody: false),
            parse: { data in try decoder.decode(A.self, from: data, at: path) })
    }

    /// Creates a resource with any method whose JSON response, or the value at `path` inside it, decodes into `A`.
    ///
    /// A `Data` body is sent as it is, a ``RequestBody`` form as its own bytes; any other body is encoded as JSON, once,
    /// here. The request carries `Accept: application/json`, and with a body a `Content-Type` (the form's, or
    /// `application/json`), unless `headers` names them.
    ///
    /// ```swift
    /// let created = try Resource<Episode>(url: episodesURL, method: .post(draft))
    /// let removed = try Resource<Episode>(url: episodeURL, method: .delete, at: ["data"])
    /// ```
    ///
    /// - Throws: ``WebserviceError/Reason/encoding(_:)`` when the body can't be encoded.
    public init(
        url: URL,
        method: HTTPMethod<any Encodable & Sendable>,
        at path: [String] = [],
        headers: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder()
    ) throws(WebserviceError) {
        let (method, bodyType, file) = try method.encoded(with: encoder)
        let contentType = method.body == nil ? nil : bodyType ?? "application/json"
        self.init(
            url: url, method: method,
            headers: headers.addingFormatDefaults(accept: "application/json", contentType: contentType),
            parse: { data in try decoder.decode(A.self, from: data, at: path) })
        bodyFile = file
    }
}
