import Foundation

/// A description of one endpoint: where it is, how to ask for it, and how to turn its bytes into a model.
///
/// A resource is a plain value. Building it does no I/O, and ``parse`` is a synchronous function you can call
/// in a test with fixture bytes. ``Webservice/load(_:)`` is the only code that goes to the network.
///
/// Model types usually expose their resources as static properties or computed properties:
///
/// ```swift
/// struct Episode: Codable, Sendable {
///     var id: String
///     var title: String
/// }
///
/// let baseURL = URL(string: "https://api.example.com")!
///
/// extension Episode {
///     static let all = Resource<[Episode]>(get: baseURL.appendingPathComponent("episodes"))
///
///     var media: Resource<Media> {
///         Resource(get: baseURL.appendingPathComponent("episodes/\(id)/media"))
///     }
/// }
/// ```
///
/// Initializers in extensions cover JSON (``init(url:method:headers:parseJSON:)``), `Decodable` responses
/// (``init(get:headers:decoder:)``) and `Encodable` bodies (``init(url:method:headers:encoder:decoder:)``).
public struct Resource<A>: Sendable {
    /// The endpoint's URL.
    public var url: URL
    /// The HTTP method, carrying the encoded request body when it has one.
    public var method: HTTPMethod<Data>
    /// Header fields sent with the request, such as `Authorization` or `Accept`.
    ///
    /// Header names are case-insensitive on the wire; don't use two keys that differ only in case.
    public var headers: [String: String]
    /// Turns a successful response's body into the model.
    ///
    /// It is synchronous and pure, so tests call it directly with fixture bytes. It throws when the bytes are not
    /// what the endpoint promises; ``Webservice/load(_:)`` wraps that error in ``WebserviceError/parsing(_:statusCode:headers:body:)``.
    public var parse: @Sendable (Data) throws -> A
    /// The longest the whole request may take, in seconds, from sending it to the last byte of the response.
    ///
    /// `nil`, the default, leaves timing to the transport. `URLSession`'s own timeout is an *idle* timeout
    /// (`URLRequest.timeoutInterval`, 60 seconds by default): it fires only when no byte arrives for that long, so
    /// a body that trickles in never trips it, and Linux ignores `timeoutIntervalForResource`. With a `timeout`,
    /// ``Webservice/load(_:)`` enforces the deadline itself on every platform and throws
    /// ``WebserviceError/transport(_:)`` with `URLError(.timedOut)` when it passes. It also caps the request's idle
    /// timeout at the same value.
    ///
    /// ```swift
    /// var feed = Episode.all
    /// feed.timeout = 10
    /// ```
    public var timeout: TimeInterval?

    /// Creates a resource from its parts.
    ///
    /// ```swift
    /// let raw = Resource<Data>(url: url, parse: { data in data })
    /// ```
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method and its body bytes. Defaults to `GET`.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - parse: Turns the response body into the model; throw when the bytes are not valid.
    public init(
        url: URL,
        method: HTTPMethod<Data> = .get,
        headers: [String: String] = [:],
        parse: @escaping @Sendable (Data) throws -> A
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.parse = parse
    }

    /// Returns a resource for the same request whose model is transformed by `transform`.
    ///
    /// ```swift
    /// let count: Resource<Int> = Episode.all.map { $0.count }
    /// ```
    ///
    /// - Parameter transform: A function from this resource's model to the new model. An error it throws is
    ///   reported like a parse error.
    /// - Returns: A resource with the same URL, method and headers, and the composed parse.
    public func map<B>(_ transform: @escaping @Sendable (A) throws -> B) -> Resource<B> {
        let parse = self.parse
        var mapped = Resource<B>(
            url: url, method: method, headers: headers, parse: { data in try transform(parse(data)) })
        mapped.timeout = timeout
        return mapped
    }
}
