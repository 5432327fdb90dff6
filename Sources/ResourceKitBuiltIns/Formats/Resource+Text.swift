import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Resource where A == String {
    /// Creates a resource whose body is text in the charset the response's `Content-Type` names, or in
    /// `textEncoding` when it names none or when there is no response (as when a test calls ``parse(_:)``).
    ///
    /// Bytes the charset can't decode make the parse throw `DecodingError.dataCorrupted`; nothing is replaced. The charsets it
    /// knows are listed in <doc:DefiningResources>.
    ///
    /// ```swift
    /// let robots = Resource<String>(url: robotsURL, textEncoding: .utf8)
    /// ```
    public init(
        url: URL,
        method: HTTPMethod<Data> = .get,
        headers: [String: String] = [:],
        textEncoding: String.Encoding
    ) {
        self.init(
            url: url, method: method, headers: headers,
            parse: { data, response in
                let charset = response?.value(forHTTPHeaderField: "Content-Type").flatMap(Charset.name(inContentType:))
                let encoding = try charset.map(Charset.encoding(named:)) ?? textEncoding
                return try Charset.decode(data, as: encoding)
            })
    }
}
