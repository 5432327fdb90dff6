import Foundation
import ResourceKitCore
internal import ResourceKitSupport

extension Resource {
    /// Creates a resource whose body is parsed with `JSONSerialization` and then shaped by `parseJSON`, which returns
    /// `nil` when the JSON has the wrong shape (the parse then throws `DecodingError.typeMismatch`).
    ///
    /// The request carries `Accept: application/json` (and `Content-Type` with a body) unless `headers` names them;
    /// see <doc:DefiningResources>.
    ///
    /// ```swift
    /// let cities = Resource<[City]>(url: citiesURL, parseJSON: { json in
    ///     (json as? [[String: Any]])?.compactMap(City.init(json:))
    /// })
    /// ```
    public init(
        url: URL,
        method: HTTPMethod<Data> = .get,
        headers: [String: String] = [:],
        parseJSON: @escaping @Sendable (Any) throws -> A?
    ) {
        self.init(
            url: url, method: method,
            headers: headers.addingFormatDefaults("application/json", sendsBody: method.body != nil),
            parse: { data in
                let json: Any
                do {
                    json = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
                } catch {
                    let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
                    throw DecodingError.corruptedBody("The body is not valid JSON: \(reason)", underlying: error)
                }
                guard let model = try parseJSON(json) else {
                    let reason = "Expected JSON for \(A.self), found a top-level \(Self.kind(of: json))."
                    throw DecodingError.typeMismatch(A.self, .init(codingPath: [], debugDescription: reason))
                }
                return model
            })
    }

    private static func kind(of json: Any) -> String {
        switch json {
        case is [String: Any]: "object"
        case is [Any]: "array"
        case is String: "string"
        case is NSNull: "null"
        default: "number or boolean"
        }
    }
}
