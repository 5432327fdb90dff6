import Foundation
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP response: its status code, header fields and body, as middleware receive it and errors keep it.
///
/// It is built once, from what the transport received; an `HTTPURLResponse` is made from it only for a parse that
/// reads one. `dump` and `Mirror` show only harmless header values; the others read `REDACTED`.
///
/// ```swift
/// let response = try await next(request, context)
/// if response.statusCode == 429, let wait = response.value(forHTTPHeaderField: "Retry-After") { … }
/// ```
public struct Response: Sendable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response body: whole once the resource's ``Resource/receiver`` read it (``ResponseBody/data``), or still
    /// arriving for a stream.
    public var body: ResponseBody
    /// The URL the response came from, after any redirects.
    public var url: URL?
    /// The attempts the load made, the last of which got this response; more than 1 after ``RetryPolicy`` retried.
    public var attempts = 1
    /// The header fields as the transport gave them.
    private var fields: Fields
    /// The request this response answers as the transport sent it, with the header fields the transport added, such
    /// as a session's configured ones; credentials included, which descriptions of the response never show.
    ///
    /// After redirects it is the first request, but for its `Cookie`: when a transport's cookie jar added cookies to
    /// any of them, the `Cookie` of the last one it added cookies to, so that the response shows it depends on them.
    ///
    /// A transport that adds header fields of its own sets it; the pipeline sets the request it handed over when the
    /// transport left it `nil`.
    public var request: Request?

    /// How the header fields are kept: as the `HTTPURLResponse` a transport made, which is then reused, or as a list.
    private enum Fields: Sendable {
        case native(HTTPURLResponse)
        case list([HeaderField])
    }

    /// Creates a response from its parts.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data(), url: URL? = nil) {
        self.init(statusCode: statusCode, headers: headers, body: ResponseBody(body), url: url)
    }

    /// Creates a response from its parts, its body still arriving or whole.
    public init(statusCode: Int, headers: [String: String] = [:], body: ResponseBody, url: URL? = nil) {
        self.statusCode = statusCode
        self.body = body
        self.url = url
        fields = .list(headers.map { HeaderField(name: $0.key, value: $0.value) })
    }

    /// The head of `response`, for a transport of yours built on `URLSession`: its status code, header fields and URL,
    /// with an empty ``body``.
    ///
    /// - Throws: ``WebserviceError/Reason/nonHTTPResponse(body:)`` for a response that isn't HTTP's.
    public init(_ response: URLResponse) throws(WebserviceError) {
        guard let http = response as? HTTPURLResponse else { throw WebserviceError(.nonHTTPResponse(body: Data())) }
        self.init(http, body: Data())
    }

    /// The response of `response` with `body`.
    public init(_ response: HTTPURLResponse, body: Data) {
        statusCode = response.statusCode
        self.body = ResponseBody(body)
        url = response.url
        fields = .native(response)
    }

    /// A response whose header fields are `fields` in the order they arrived, repeated names included.
    public init(statusCode: Int, headerFields fields: [HeaderField], body: Data = Data(), url: URL? = nil) {
        self.statusCode = statusCode
        self.body = ResponseBody(body)
        self.url = url
        self.fields = .list(fields)
    }

    /// The response's header fields; a name that arrived more than once has its values joined by commas.
    ///
    /// They are joined as `HTTPURLResponse` joins them, `Set-Cookie` too, which
    /// `HTTPCookie.cookies(withResponseHeaderFields:for:)` reads; <doc:Transports#Header-fields> says what each
    /// transport keeps of the fields one by one.
    public var headers: [String: String] {
        get {
            switch fields {
            case .native(let response): return response.headerFields
            case .list(let list): return list.dictionary
            }
        }
        set { fields = .list(newValue.map { HeaderField(name: $0.key, value: $0.value) }) }
    }

    /// The value of the header field `name`, matched in any letter case; repeated fields joined by commas.
    public func value(forHTTPHeaderField name: String) -> String? {
        switch fields {
        case .native(let response): return response.value(forHTTPHeaderField: name)
        case .list(let list): return list.value(named: name)
        }
    }

    /// The `Content-Length` as a number, `nil` without one or for one that isn't a number of bytes (a negative one).
    ///
    /// An `HTTPURLResponse` parsed it when it was made (its `expectedContentLength`): looking the field up again
    /// lowercases every name in the response.
    var contentLength: Int64? {
        switch fields {
        case .native(let response): response.expectedContentLength >= 0 ? response.expectedContentLength : nil
        case .list: value(forHTTPHeaderField: "Content-Length").flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
        }
    }

    /// The header fields in the order they arrived, repeated names apart.
    ///
    /// An `HTTPURLResponse` keeps one value per name, in no order: its fields are listed by name, and its
    /// `Set-Cookie` value, which it joined with commas, is split again into one field per cookie
    /// (`HTTPSyntax.cookies(joinedIn:)`).
    public var headerFields: [HeaderField] {
        switch fields {
        case .native(let response):
            response.headerFields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.flatMap {
                name, value in
                sameHeaderName(name, "Set-Cookie")
                    ? HTTPSyntax.cookies(joinedIn: value).map { HeaderField(name: name, value: $0) }
                    : [HeaderField(name: name, value: value)]
            }
        case .list(let list): list
        }
    }

    /// Changes the header fields as ``headerFields`` lists them, repeats apart.
    public mutating func updateFields(_ change: (inout [HeaderField]) -> Void) {
        var list = headerFields
        change(&list)
        fields = .list(list)
    }

    /// The response as an `HTTPURLResponse`, for a parse that reads one: the transport's own when it made one.
    func httpURLResponse() -> HTTPURLResponse? {
        if case .native(let response) = fields, response.statusCode == statusCode, response.url == url {
            return response
        }
        guard let url = url ?? request?.url ?? URL(string: "about:blank") else { return nil }
        return HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
    }

    /// The credentials of the request this response answers, which descriptions replace wherever the server echoed
    /// them.
    var secrets: [String] { request?.secrets ?? [] }
}

extension Response: CustomReflectable {
    /// The status code, the header fields with only harmless values shown (without the request's credentials), and the
    /// body.
    public var customMirror: Mirror {
        let secrets = secrets
        let headers = headers.reduce(into: [String: String]()) { result, field in
            result[field.key] =
                isSafeHeader(field.key) ? Redaction.scrub(field.value, removing: secrets) : Redaction.mark
        }
        return Mirror(
            self,
            children: [
                "statusCode": statusCode, "headers": headers, "body": body.data ?? Data(), "attempts": attempts,
            ])
    }
}
