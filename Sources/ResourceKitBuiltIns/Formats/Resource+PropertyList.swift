import Foundation
import ResourceKitCore
internal import ResourceKitSupport

extension Resource where A: Decodable & SendableMetatype {
    /// Creates a resource whose property-list body, XML or binary, decodes into `A`.
    ///
    /// The request carries `Accept: application/x-plist` (and `Content-Type` with a body, sent as it is) unless
    /// `headers` names them. A body nested more than 512 levels deep is refused before decoding.
    ///
    /// ```swift
    /// let settings = Resource<Settings>(url: settingsURL, propertyListDecoder: PropertyListDecoder())
    /// ```
    public init(
        url: URL,
        method: HTTPMethod<Data> = .get,
        headers: [String: String] = [:],
        propertyListDecoder: PropertyListDecoder
    ) {
        self.init(
            url: url, method: method,
            headers: headers.addingFormatDefaults("application/x-plist", sendsBody: method.body != nil),
            parse: { data in
                try PropertyListNesting.check(data)
                return try propertyListDecoder.decode(A.self, from: data)
            })
    }
}
