import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
    /// Query items appended, in order, to any query already in ``url``.
    ///
    /// Names and values are percent-encoded completely, `+`, `&`, `=`, spaces and non-ASCII characters included, so
    /// every server reads back exactly the strings you set. A name may appear more than once; an item with a `nil`
    /// value is sent as its name alone.
    ///
    /// ```swift
    /// var search = Resource<[Episode]>(get: baseURL.appendingPathComponent("search"))
    /// search.queryItems = [URLQueryItem(name: "q", value: "C++ & Swift"), URLQueryItem(name: "tag", value: "ios")]
    /// // https://api.example.com/search?q=C%2B%2B%20%26%20Swift&tag=ios
    /// ```
    public var queryItems: [URLQueryItem] = []
    /// The HTTP method, carrying the encoded request body when it has one.
    public var method: HTTPMethod<Data>
    /// Header fields sent with the request, such as `Authorization` or `Accept`.
    ///
    /// Header names are case-insensitive on the wire; don't use two keys that differ only in case.
    public var headers: [String: String]
    /// The status codes that count as success, `200..<300` unless you change it; the parse runs only for these.
    ///
    /// Any other status makes ``Webservice/load(_:)`` throw ``WebserviceError/unacceptableStatus(statusCode:headers:body:)``,
    /// or ``WebserviceError/serverError(_:statusCode:headers:body:)`` when ``parseError`` understands the body.
    ///
    /// ```swift
    /// var page = Resource<Data>(url: pageURL, parse: { $0 })
    /// page.acceptableStatusCodes = 200..<400  // also accept 304 Not Modified, as TABResourceLoader does
    /// ```
    public var acceptableStatusCodes: Range<Int> = 200..<300
    /// Turns the body of a response with an unacceptable status into the API's own error model, such as
    /// `{"error": "not_found"}`; `nil`, the default, keeps such bodies as bytes.
    ///
    /// When it returns an error, ``Webservice/load(_:)`` throws ``WebserviceError/serverError(_:statusCode:headers:body:)``
    /// with it, keeping the status code, headers and body. When it throws, because the body is not in the API's error
    /// format (an HTML page from a proxy, say), `load` throws ``WebserviceError/unacceptableStatus(statusCode:headers:body:)``
    /// as if there were none. ``decodingErrors(as:decoder:)`` sets it for a `Decodable` error type.
    public var parseError: (@Sendable (Data) throws -> any Error)?
    /// Turns a successful response's body, and the response itself when there is one, into the model.
    private var interpret: @Sendable (Data, HTTPURLResponse?) throws -> A

    /// Turns a successful response's body into the model.
    ///
    /// It is synchronous and pure, so tests call it directly with fixture bytes. It throws when the bytes are not
    /// what the endpoint promises; ``Webservice/load(_:)`` wraps that error in ``WebserviceError/parsing(_:statusCode:headers:body:)``.
    /// A resource made with ``init(url:method:headers:parseResponse:)`` gets `nil` for the response here, and
    /// assigning a new `parse` replaces the response-aware one: to build on it, use ``map(_:)``, which keeps the
    /// response.
    public var parse: @Sendable (Data) throws -> A {
        get {
            let interpret = self.interpret
            return { data in try interpret(data, nil) }
        }
        set {
            interpret = { data, _ in try newValue(data) }
        }
    }
    /// The longest the whole request may take, in seconds, from sending it to the last byte of the response.
    ///
    /// `nil`, the default, leaves timing to the transport. `URLSession`'s own timeout is an *idle* timeout
    /// (`URLRequest.timeoutInterval`, 60 seconds by default): it fires only when no byte arrives for that long, so
    /// a body that trickles in never trips it, and Linux ignores `timeoutIntervalForResource`. With a `timeout`,
    /// ``Webservice/load(_:)`` enforces the deadline itself on every platform: it cancels the transport's request and
    /// returns without waiting for it (a custom ``Transport`` that ignores cancellation can't hold it up), and throws
    /// ``WebserviceError/transport(_:)`` with `URLError(.timedOut)` when it passes. It also caps the request's idle
    /// timeout at the same value. The clock starts once the load has its place under a ``Webservice/limiter``, which
    /// the request keeps until its transport has returned; it doesn't apply to responses served from a
    /// ``Webservice/cache``.
    ///
    /// ```swift
    /// var feed = Episode.all
    /// feed.timeout = 10
    /// ```
    public var timeout: TimeInterval?
    /// The largest response body to accept, in bytes, or `nil`, the default, for no limit.
    ///
    /// A larger body makes ``Webservice/load(_:)`` throw ``WebserviceError/bodyTooLarge(limit:)`` instead of holding
    /// it all in memory. `URLSession` and `AsyncHTTPClientTransport` give up as soon as the response's
    /// `Content-Length`, or the bytes received so far, pass the limit; ``FileTransport`` doesn't read a larger
    /// file. A custom ``Transport`` that doesn't implement ``Transport/data(for:maxBodySize:)`` receives the whole
    /// body, and `load` checks its size afterwards. The limit applies to bodies from a ``Webservice/cache`` too.
    ///
    /// ```swift
    /// var export = Resource<Data>(url: exportURL)
    /// export.maxBodySize = 50_000_000
    /// ```
    public var maxBodySize: Int?

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
        self.init(url: url, method: method, headers: headers, parseResponse: { data, _ in try parse(data) })
    }

    /// Creates a resource whose parse also reads the response, for models that depend on its header fields, such as
    /// a text encoding or a pagination `Link`.
    ///
    /// ``Resource/value(from:response:)``, and so ``Webservice/load(_:)``, pass the HTTP response; ``parse`` passes
    /// `nil`, so a test can still call it with fixture bytes alone.
    ///
    /// ```swift
    /// let page = Resource<Page>(url: url, parseResponse: { data, response in
    ///     Page(items: try JSONDecoder().decode([Episode].self, from: data),
    ///          next: response?.value(forHTTPHeaderField: "Link"))
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method and its body bytes. Defaults to `GET`.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - parseResponse: Turns the response body, and the response when there is one, into the model.
    public init(
        url: URL,
        method: HTTPMethod<Data> = .get,
        headers: [String: String] = [:],
        parseResponse: @escaping @Sendable (Data, HTTPURLResponse?) throws -> A
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.interpret = parseResponse
    }

    /// Parses `data` as the body of `response`, which must have an acceptable status code.
    func parse(_ data: Data, of response: HTTPURLResponse) throws -> A {
        try interpret(data, response)
    }

    /// Returns a resource for the same request whose model is transformed by `transform`.
    ///
    /// ```swift
    /// let count: Resource<Int> = Episode.all.map { $0.count }
    /// ```
    ///
    /// - Parameter transform: A function from this resource's model to the new model. An error it throws is
    ///   reported like a parse error.
    /// - Returns: A resource with the same request, status codes, timeout, body limit and error parse, and the composed parse.
    public func map<B>(_ transform: @escaping @Sendable (A) throws -> B) -> Resource<B> {
        let interpret = self.interpret
        var mapped = Resource<B>(
            url: url, method: method, headers: headers,
            parseResponse: { data, response in try transform(interpret(data, response)) })
        mapped.queryItems = queryItems
        mapped.acceptableStatusCodes = acceptableStatusCodes
        mapped.timeout = timeout
        mapped.maxBodySize = maxBodySize
        mapped.parseError = parseError
        return mapped
    }
}
