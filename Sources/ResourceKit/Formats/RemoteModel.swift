import Foundation

/// A model the API serves as a collection with one URL per item, such as `GET /episodes` and `GET /episodes/1`.
///
/// Conforming gives the model its resources, ``all`` and ``one(id:)``, from one URL. The model's `id` type comes
/// from `Identifiable`:
///
/// ```swift
/// struct Episode: RemoteModel {
///     var id: String
///     var title: String
///     static let collectionURL = baseURL.appendingPathComponent("episodes")
/// }
///
/// let episodes = try await webservice.load(Episode.all)
/// let first = try await webservice.load(Episode.one(id: "1"))
/// ```
///
/// The resources are plain values, loaded like any other by ``Webservice/load(_:)`` or another ``ResourceLoading``.
/// Implement a requirement to change it: ``decoder`` for the API's key or date style, ``pathComponent(for:)`` for an
/// `ID` such as `UUID`, or ``all`` and ``one(id:)`` themselves for other URLs or header fields.
public protocol RemoteModel: Decodable, Identifiable, SendableMetatype {
    /// The collection's URL, such as `https://api.example.com/episodes`; an item's URL adds one path segment to it.
    static var collectionURL: URL { get }

    /// The decoder for the collection and its items. Defaults to a plain `JSONDecoder`.
    static var decoder: JSONDecoder { get }

    /// The path segment that names the item with `id`, before percent-encoding.
    ///
    /// It defaults to `String(id)` when the `ID` is `LosslessStringConvertible`, as `String` and `Int` are. Implement
    /// it for another `ID` type:
    ///
    /// ```swift
    /// static func pathComponent(for id: UUID) -> String { id.uuidString.lowercased() }
    /// ```
    ///
    /// - Parameter id: An item's identifier.
    /// - Returns: The item's path segment in the collection's URL, unencoded.
    static func pathComponent(for id: ID) -> String

    /// The `GET` resource that lists the collection: ``collectionURL``, decoded as `[Self]` with ``decoder``.
    static var all: Resource<[Self]> { get }

    /// The `GET` resource for the item with `id`.
    ///
    /// The default is ``collectionURL`` with ``pathComponent(for:)`` appended as one path segment, decoded as `Self`
    /// with ``decoder``. The segment is percent-encoded completely — `/`, `?`, `#`, `%`, spaces and non-ASCII
    /// characters included — so every ID names exactly one item; the collection URL's query, if any, is kept.
    ///
    /// ```swift
    /// let episode = try await webservice.load(Episode.one(id: "1"))  // GET https://api.example.com/episodes/1
    /// ```
    ///
    /// - Parameter id: The item's identifier.
    /// - Returns: The resource for the item.
    /// - Throws: ``RemoteModelError/invalidID(pathComponent:)`` when the ID's path segment is empty, `.` or `..`,
    ///   which would name the collection or its parent instead of an item.
    static func one(id: ID) throws(RemoteModelError) -> Resource<Self>
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
    /// - Throws: ``RemoteModelError/invalidID(pathComponent:)`` when the ID's path segment is empty, `.` or `..`.
    public static func one(id: ID) throws(RemoteModelError) -> Resource<Self> {
        let segment = pathComponent(for: id)
        guard !["", ".", ".."].contains(segment),
            let encoded = HTTPSyntax.percentEncoded(segment),
            var components = URLComponents(url: collectionURL, resolvingAgainstBaseURL: true)
        else {
            throw .invalidID(pathComponent: segment)
        }
        let path = components.percentEncodedPath
        components.percentEncodedPath = (path.hasSuffix("/") ? path : path + "/") + encoded
        guard let url = components.url else {
            throw .invalidID(pathComponent: segment)
        }
        return Resource(get: url, decoder: decoder)
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
