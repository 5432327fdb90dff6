import Foundation
import ResourceKitCore
internal import ResourceKitSupport

extension Resource where A: Decodable & SendableMetatype {
    /// Creates a `GET` resource for one item of a collection the API serves with one URL per item, such as
    /// `GET /episodes/1`: `collection` with `item` appended as one percent-encoded path segment.
    ///
    /// The collection's query and a trailing slash are kept. An item can never name another URL: `a/b` is the one
    /// segment `a%2Fb`, and an item that is empty, `.` or `..` throws. See <doc:DefiningResources>.
    ///
    /// ```swift
    /// extension Episode {
    ///     static let all = Resource<[Episode]>(get: episodesURL)
    ///     static func one(_ id: Int) throws(WebserviceError) -> Resource<Episode> {
    ///         try Resource(get: episodesURL, item: id)  // GET https://api.example.com/episodes/1
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - collection: The collection's URL, such as `https://api.example.com/episodes`.
    ///   - item: The item's identifier, as its description names it, before percent-encoding.
    ///   - headers: Header fields to send; `Accept: application/json` is added unless named.
    ///   - decoder: The decoder for the item.
    /// - Throws: ``WebserviceError/Reason/encoding(_:)`` with an `EncodingError.invalidValue` when the item's path
    ///   segment is empty, `.` or `..`.
    public init(
        get collection: URL, item: some LosslessStringConvertible, headers: [String: String] = [:],
        decoder: JSONDecoder = JSONDecoder()
    ) throws(WebserviceError) {
        let segment = String(item)
        guard !["", ".", ".."].contains(segment),
            let encoded = HTTPSyntax.percentEncoded(segment),
            var components = URLComponents(url: collection, resolvingAgainstBaseURL: true)
        else {
            throw Self.invalidItem(segment)
        }
        let path = components.percentEncodedPath
        components.percentEncodedPath = (path.hasSuffix("/") ? path : path + "/") + encoded
        guard let url = components.url else {
            throw Self.invalidItem(segment)
        }
        self.init(get: url, headers: headers, decoder: decoder)
    }

    /// The error for an item whose path segment can't name it.
    private static func invalidItem(_ segment: String) -> WebserviceError {
        let reason = "The ID \"\(segment)\" can't name an item: a URL path segment can't be empty, \".\" or \"..\"."
        return WebserviceError(
            .encoding(EncodingError.invalidValue(segment, .init(codingPath: [], debugDescription: reason))))
    }
}
