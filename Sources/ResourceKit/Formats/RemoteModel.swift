import Foundation

/// A model the API serves as a collection with one URL per item, such as `GET /episodes` and `GET /episodes/1`.
///
/// Conforming gives the model its resources, ``all`` and ``one(id:)``, from ``collectionURL``; implement a
/// requirement to change it. See <doc:DefiningResources>.
///
/// ```swift
/// struct Episode: RemoteModel {
///     var id: String
///     var title: String
///     static let collectionURL = baseURL.appendingPathComponent("episodes")
/// }
/// ```
public protocol RemoteModel: Decodable, Identifiable, SendableMetatype {
    /// The collection's URL, such as `https://api.example.com/episodes`; an item's URL adds one path segment to it.
    static var collectionURL: URL { get }

    /// The decoder for the collection and its items. Defaults to a plain `JSONDecoder`.
    static var decoder: JSONDecoder { get }

    /// The path segment that names the item with `id`, before percent-encoding; `String(id)` by default.
    static func pathComponent(for id: ID) -> String

    /// The `GET` resource that lists the collection: ``collectionURL``, decoded as `[Self]` with ``decoder``.
    static var all: Resource<[Self]> { get }

    /// The `GET` resource for the item with `id`: ``collectionURL`` with ``pathComponent(for:)`` appended as one
    /// percent-encoded path segment.
    ///
    /// - Throws: ``WebserviceError/Reason/encoding(_:)`` when the segment is empty, `.` or `..`.
    static func one(id: ID) throws(WebserviceError) -> Resource<Self>
}

extension RemoteModel {
    /// A plain `JSONDecoder`.
    public static var decoder: JSONDecoder { JSONDecoder() }

    /// `GET` ``collectionURL``, decoded as `[Self]` with ``decoder``.
    public static var all: Resource<[Self]> {
        Resource(get: collectionURL, decoder: decoder)
    }

    /// `GET` ``collectionURL`` with the ID's percent-encoded path segment appended, decoded as `Self` with
    /// ``decoder``.
    ///
    /// ```swift
    /// let episode = try Episode.one(id: "1")  // GET https://api.example.com/episodes/1
    /// ```
    ///
    /// - Parameter id: The item's identifier.
    /// - Returns: The resource for the item.
    /// - Throws: ``WebserviceError/Reason/encoding(_:)`` with an `EncodingError.invalidValue` when the ID's path segment is
    ///   empty, `.` or `..`.
    public static func one(id: ID) throws(WebserviceError) -> Resource<Self> {
        let segment = pathComponent(for: id)
        guard !["", ".", ".."].contains(segment),
            let encoded = HTTPSyntax.percentEncoded(segment),
            var components = URLComponents(url: collectionURL, resolvingAgainstBaseURL: true)
        else {
            throw invalidID(segment)
        }
        let path = components.percentEncodedPath
        components.percentEncodedPath = (path.hasSuffix("/") ? path : path + "/") + encoded
        guard let url = components.url else {
            throw invalidID(segment)
        }
        return Resource(get: url, decoder: decoder)
    }

    private static func invalidID(_ segment: String) -> WebserviceError {
        let reason = "The ID \"\(segment)\" can't name an item: a URL path segment can't be empty, \".\" or \"..\"."
        return WebserviceError(
            .encoding(EncodingError.invalidValue(segment, .init(codingPath: [], debugDescription: reason))))
    }
}

extension RemoteModel where ID: LosslessStringConvertible {
    /// `String(id)`, such as `"1"` for the `Int` 1.
    ///
    /// - Parameter id: An item's identifier.
    /// - Returns: The identifier's description.
    public static func pathComponent(for id: ID) -> String {
        String(id)
    }
}
