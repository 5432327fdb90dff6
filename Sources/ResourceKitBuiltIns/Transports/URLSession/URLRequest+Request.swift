import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Creates the `URLRequest` that sends `request`, for a transport of yours built on `URLSession`: its method, URL,
    /// header fields and body, a file's as a stream read as it is sent, with its `Content-Length` on Apple platforms.
    ///
    /// On Linux, FoundationNetworking sends every stream body with `Transfer-Encoding: chunked`, and a
    /// `Content-Length` beside it would make the request one a server must refuse: the file goes chunked, without one.
    ///
    /// ```swift
    /// func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
    ///     let (data, response) = try await URLSession.shared.data(for: try URLRequest(request))
    ///     return (try Response(response), ResponseBody(data))
    /// }
    /// ```
    ///
    /// A repeated header field is sent once, its values joined by commas, as `URLRequest` keeps one value per name.
    ///
    /// - Throws: What ``RequestBody/bytes()`` throws for a form whose encoding fails (a multipart part's file that
    ///   can't be read).
    public init(_ request: Request) throws(WebserviceError) {
        self.init(head: request)
        // A form is encoded here, where its failure can be thrown, rather than dropped in `setBody(_:)`.
        let body = request.body?.file == nil ? try request.body?.bytes().map { RequestBody($0) } : request.body
        setBody(body)
    }

    /// Sets the body to `body`, bytes or a file, which is sent as a stream: with its `Content-Length` on Apple
    /// platforms, chunked without one on Linux.
    private mutating func setBody(_ body: RequestBody?) {
        if let file = body?.file {
            httpBodyStream = InputStream(url: file)
            var sendsLength = true
            #if canImport(FoundationNetworking)
                sendsLength = false
            #endif
            if !sendsLength {
                setValue(nil, forHTTPHeaderField: "Content-Length")
            } else if value(forHTTPHeaderField: "Content-Length") == nil, let length = try? file.regularFileSize() {
                setValue(String(length), forHTTPHeaderField: "Content-Length")
            }
        } else {
            httpBody = (try? body?.bytes()) ?? nil
        }
    }

    /// The request with `request`'s method, URL and header fields, and no body.
    init(head request: Request) {
        self.init(url: request.url)
        if request.method != "GET" { httpMethod = request.method }
        setHeaderFields(request.headerFields)
    }

    /// Creates the request that loads `resource`: its URL with its query items, method name, header fields and body.
    ///
    /// It is synchronous and does no I/O, so tests can check exactly what goes on the wire:
    ///
    /// ```swift
    /// let request = URLRequest(resource: try Resource<Episode>(url: url, method: .post(newEpisode)))
    /// #expect(request.httpMethod == "POST")
    /// #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    /// ```
    ///
    /// - Parameter resource: The resource to request.
    public init<A>(resource: Resource<A>) {
        // A resource's body is its bytes or its file, never a form still to encode: nothing here can fail.
        let request = Request(resource: resource)
        self.init(head: request)
        setBody(request.body)
    }

    /// Sets the request's header fields to `fields`, in one step when `setValue(_:forHTTPHeaderField:)` would store
    /// them as they are, and field by field through it otherwise.
    ///
    /// On Linux, `setValue` capitalizes and compares every name through `NSString`; a request's fields rarely need
    /// that, as every value is valid and no name is there twice in different cases.
    private mutating func setHeaderFields(_ fields: [HeaderField]) {
        guard !fields.isEmpty else { return }
        var plain = fields.allSatisfy { isValidHeaderValue($0.value) }
        if plain, fields.count > 1 {
            plain = fields.indices.allSatisfy { index in
                fields[(index + 1)...].allSatisfy { !sameHeaderName($0.name, fields[index].name) }
            }
        }
        guard plain else {
            for field in fields {
                addValue(field.value, forHTTPHeaderField: field.name)
            }
            return
        }
        allHTTPHeaderFields = Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }
}
