import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A description of one endpoint: where it is, how to ask for it, and how to turn its bytes into a model.
///
/// A resource is a plain value: building it does no I/O, and its ``parse`` is a synchronous function, which a test
/// calls with fixture bytes through ``parse(_:)``. ``Webservice/load(_:)->A`` is the only code that goes to the network.
/// The initializers for each format are listed in <doc:DefiningResources>.
///
/// ```swift
/// extension Episode {
///     static let all = Resource<[Episode]>(get: baseURL.appendingPathComponent("episodes"))
/// }
/// ```
public struct Resource<A>: Sendable {
    /// The endpoint's URL.
    public var url: URL
    /// Query items appended, in order, to any query already in ``url``, percent-encoded completely.
    ///
    /// See <doc:DefiningResources>.
    public var queryItems: [URLQueryItem] = []
    /// The HTTP method, carrying the encoded request body when it has one.
    public var method: HTTPMethod<Data>
    /// Header fields sent with the request, such as `Authorization` or `Accept`.
    public var headers: [String: String]
    /// The status codes that count as success, `200..<300` unless you change it; the parse runs only for these.
    ///
    /// Any ``StatusCodeSet``: a range (`200..<400`, `200...299`), a list (`[200, 304]`) or a `Set<Int>`.
    public var acceptableStatusCodes: any StatusCodeSet = 200..<300
    /// Turns the body of a response with an unacceptable status into the API's own error model; `nil` keeps it as
    /// bytes.
    ///
    /// See ``decodingAPIErrors(as:decoder:)`` and <doc:ErrorHandling>.
    public var parseAPIError: (@Sendable (Data) throws -> any Error)?
    /// Turns a successful response's body, and the response when there is one, into the model.
    ///
    /// It is synchronous and pure; a test that has no response calls ``parse(_:)``. See <doc:TestingParses>.
    public var parse: @Sendable (Data, HTTPURLResponse?) throws -> A {
        didSet { parseReadsResponse = true }
    }
    /// The longest the whole request may take, in seconds; `nil`, the default, leaves timing to the transport.
    ///
    /// See <doc:LoadingResources>.
    public var timeout: TimeInterval?
    /// The largest response body to accept, in bytes; `nil`, the default, sets no limit.
    ///
    /// See <doc:LoadingResources>.
    public var maxBodySize: Int?
    /// Receives the progress of the request body's upload and the response body's download, about every hundredth of
    /// the way, on the transport's own thread (keep it short); `nil`, the default, reports nothing.
    ///
    /// See <doc:TransferringFiles>.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// How the load uses the web service's ``ResponseCache``; ``CachePolicy/http`` unless you change it.
    ///
    /// The default follows the server's `Cache-Control`; the others answer with a stored response when offline. See
    /// <doc:WorkingOffline>.
    public var cachePolicy = CachePolicy.http
    /// A name for logs and middleware, such as `"episodes"`: it reaches them as ``LoadContext/name``; `nil` by default.
    public var name: String?
    /// The innermost stage of each attempt, which takes the response's body before the response goes back through the
    /// middleware (``LoadContext/receiver``): ``Collecting`` by default, which reads it whole into memory within
    /// ``maxBodySize``; a download's writes it to its file; `nil` leaves it unread, for a stream's loop.
    public var receiver: (any Middleware)? = Collecting()
    /// The file whose contents are sent as the request body, read as it is sent.
    public var bodyFile: URL?
    /// Where the body of an accepted response is saved instead of being kept in memory.
    public var destination: URL?
    /// Whether the request may carry credentials: `false` for a page another origin's server led to, which gets no
    /// header field but the safe ones (``isSafeHeader(_:extra:)``) and no cookies, whatever layer adds them.
    public var sendsCredentials = true
    /// Whether ``parse`` may read the response: `false` for a parse made from `(Data) throws -> A`, which
    /// ``Webservice`` then calls with `nil` rather than build an `HTTPURLResponse` nobody reads.
    var parseReadsResponse = true

    /// Creates a resource whose parse turns the response body into the model.
    ///
    /// ```swift
    /// let raw = Resource<Data>(url: url, parse: { data in data })
    /// ```
    public init(
        url: URL,
        method: HTTPMethod<Data> = .get,
        headers: [String: String] = [:],
        parse: @escaping @Sendable (Data) throws -> A
    ) {
        self.init(url: url, method: method, headers: headers, parse: { data, _ in try parse(data) })
        parseReadsResponse = false
    }

    /// Creates a resource whose parse also reads the response, for models that depend on its header fields.
    ///
    /// ```swift
    /// let page = Resource<Page>(url: url, parse: { data, response in
    ///     Page(items: try JSONDecoder().decode([Episode].self, from: data),
    ///          next: response?.value(forHTTPHeaderField: "Link"))
    /// })
    /// ```
    public init(
        url: URL,
        method: HTTPMethod<Data> = .get,
        headers: [String: String] = [:],
        parse: @escaping @Sendable (Data, HTTPURLResponse?) throws -> A
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.parse = parse
    }

    /// Parses `data` as the body of a successful response, with no response: what a test calls with fixture bytes.
    ///
    /// ```swift
    /// #expect(try Episode.all.parse(fixture) == [Episode(id: "1", title: "Networking")])
    /// ```
    public func parse(_ data: Data) throws -> A {
        try parse(data, nil)
    }

    /// Returns a resource for the same request whose model is transformed by `transform`.
    ///
    /// The new resource keeps everything else, the response-aware parse included; an error `transform` throws is
    /// reported like a parse error.
    ///
    /// ```swift
    /// let count: Resource<Int> = Episode.all.map { $0.count }
    /// ```
    public func map<B>(_ transform: @escaping @Sendable (A) throws -> B) -> Resource<B> {
        var mapped = map(withResponse: { value, _ in try transform(value) })
        mapped.parseReadsResponse = parseReadsResponse
        return mapped
    }

    /// ``map(_:)`` with a transform that reads the response too, such as its `Link` header field; `nil` when the parse
    /// is called without one, as by ``parse(_:)``.
    public func map<B>(withResponse transform: @escaping @Sendable (A, HTTPURLResponse?) throws -> B) -> Resource<B> {
        let parse = self.parse
        var mapped = Resource<B>(
            url: url, method: method, headers: headers,
            parse: { data, response in try transform(parse(data, response), response) })
        mapped.queryItems = queryItems
        mapped.acceptableStatusCodes = acceptableStatusCodes
        mapped.timeout = timeout
        mapped.maxBodySize = maxBodySize
        mapped.parseAPIError = parseAPIError
        mapped.progress = progress
        mapped.bodyFile = bodyFile
        mapped.destination = destination
        mapped.receiver = receiver
        mapped.sendsCredentials = sendsCredentials
        mapped.name = name
        mapped.cachePolicy = cachePolicy
        return mapped
    }

    /// Validates a response and parses its body: everything ``Webservice/load(_:)->A`` does after the bytes arrive.
    ///
    /// It is synchronous, so a test checks the whole path from response to model, errors included, without a network.
    /// See <doc:ErrorHandling> for the errors it throws.
    ///
    /// ```swift
    /// let response = HTTPURLResponse(url: url, statusCode: 404, httpVersion: nil, headerFields: nil)!
    /// #expect(throws: WebserviceError.self) { try Episode.all.value(from: body, response: response) }
    /// ```
    public func value(from data: Data, response: URLResponse) throws(WebserviceError) -> A {
        guard let http = response as? HTTPURLResponse else { throw WebserviceError(.nonHTTPResponse(body: data)) }
        return try value(from: Response(http, body: data))
    }

    /// ``value(from:response:)`` for a ``Response``, whose `HTTPURLResponse` is built only if the parse reads it.
    public func value(from response: Response) throws(WebserviceError) -> A {
        guard acceptableStatusCodes.contains(response.statusCode) else {
            if let apiError = try? parseAPIError?(response.body.data ?? Data()) {
                throw WebserviceError(.apiError(apiError, response))
            }
            throw WebserviceError(.unacceptableStatus(response))
        }
        do {
            return try parse(response.body.data ?? Data(), parseReadsResponse ? response.httpURLResponse() : nil)
        } catch {
            throw WebserviceError(.parsing(error, response))
        }
    }
}
