import Foundation

/// Why ``Webservice/load(_:)`` could not produce a model.
///
/// Every case keeps what you need to react to or report the failure: the underlying error, and the status code,
/// header fields and body of the response when there was one. The convenience properties ``statusCode``,
/// ``headers``, ``body`` and ``underlyingError`` read them without a `switch`.
///
/// ```swift
/// do {
///     let episodes = try await webservice.load(Episode.all)
/// } catch let error as WebserviceError where error.statusCode == 401 {
///     signIn()
/// }
/// ```
///
/// Its description is meant for logs: one line that names the failure, the status, the body's size and, for an
/// unacceptable status, the first 200 characters of the body (the server's error message; turn that off with
/// ``describesBodies``). No description, `dump` or `Mirror` shows a credential: header values other than
/// harmless ones such as `Content-Type`, URL userinfo, credential query values (`access_token`, `api_key`, `sig`, …),
/// `Bearer` tokens and JSON fields such as `"password"` are replaced by `REDACTED`.
public enum WebserviceError: Error, Sendable {
    /// The transport failed before a response arrived, usually with a `URLError` such as `.notConnectedToInternet`,
    /// `.timedOut` or `.cannotConnectToHost`.
    ///
    /// A `URLError` keeps its code with its URLs and messages redacted; another error whose text would show one of
    /// the request's credentials is kept as its redacted description.
    case transport(any Error)
    /// The transport returned a response that is not an `HTTPURLResponse`.
    case nonHTTPResponse(body: Data)
    /// The server answered with a status code outside the resource's ``Resource/acceptableStatusCodes``; its header
    /// fields and body are kept.
    case unacceptableStatus(statusCode: Int, headers: [String: String], body: Data)
    /// The server answered with an unacceptable status code and a body the resource's ``Resource/parseError`` turned
    /// into the API's own error, such as `APIError(error: "not_found")`; status, header fields and body are kept.
    case serverError(any Error, statusCode: Int, headers: [String: String], body: Data)
    /// The resource's ``Resource/parse`` threw on an accepted response, typically a `DecodingError`.
    case parsing(any Error, statusCode: Int, headers: [String: String], body: Data)
    /// The request could not be encoded: its body, typically an `EncodingError`, or a header field whose name or
    /// value HTTP forbids (an `EncodingError.invalidValue` naming the field, never showing its value).
    case encoding(any Error)
    /// The response body is larger than the resource's ``Resource/maxBodySize``, `limit` bytes; transports that can
    /// stop reading early have.
    case bodyTooLarge(limit: Int)

    /// The response's HTTP status code, when a response arrived.
    public var statusCode: Int? {
        switch self {
        case .unacceptableStatus(let statusCode, _, _), .serverError(_, let statusCode, _, _),
            .parsing(_, let statusCode, _, _):
            statusCode
        case .transport, .nonHTTPResponse, .encoding, .bodyTooLarge: nil
        }
    }

    /// The response's header fields, when an HTTP response arrived.
    public var headers: [String: String]? {
        switch self {
        case .unacceptableStatus(_, let headers, _), .serverError(_, _, let headers, _), .parsing(_, _, let headers, _):
            headers
        case .transport, .nonHTTPResponse, .encoding, .bodyTooLarge: nil
        }
    }

    /// The response body, when a response arrived.
    public var body: Data? {
        switch self {
        case .nonHTTPResponse(let body), .unacceptableStatus(_, _, let body), .serverError(_, _, _, let body),
            .parsing(_, _, _, let body):
            body
        case .transport, .encoding, .bodyTooLarge: nil
        }
    }

    /// The error that caused this one: the transport's, the server's own error model, the parse's or the encoder's.
    public var underlyingError: (any Error)? {
        switch self {
        case .transport(let error), .serverError(let error, _, _, _), .parsing(let error, _, _, _),
            .encoding(let error):
            error
        case .nonHTTPResponse, .unacceptableStatus, .bodyTooLarge: nil
        }
    }

    /// The transport's `URLError`, when the transport failed with one.
    public var urlError: URLError? {
        if case .transport(let error as URLError) = self { error } else { nil }
    }

    /// The value of a response header field, with the name matched case-insensitively as HTTP requires.
    ///
    /// ```swift
    /// let retryAfter = error.value(forHTTPHeaderField: "retry-after")
    /// ```
    ///
    /// - Parameter name: The header field's name, in any letter case.
    /// - Returns: The field's value, or `nil` when there was no HTTP response or it lacks the field.
    public func value(forHTTPHeaderField name: String) -> String? {
        let name = name.lowercased()
        return headers?.first { $0.key.lowercased() == name }?.value
    }
}

extension WebserviceError: CustomStringConvertible, LocalizedError {
    /// A one-line account of the failure for logs, with credentials redacted.
    public var description: String {
        Redaction.scrub(unredactedDescription)
    }

    private var unredactedDescription: String {
        switch self {
        case .transport(let error):
            "The request failed before a response arrived: \(Self.explain(error))"
        case .nonHTTPResponse(let body):
            "The response was not an HTTP response (\(Self.count(body)))."
        case .unacceptableStatus(let statusCode, _, let body):
            "The server answered HTTP \(statusCode) with \(content)" + (Self.preview(of: body).map { ": \($0)" } ?? ".")
        case .serverError(let error, let statusCode, _, let body):
            "The server answered HTTP \(statusCode) with \(type(of: error))"
                + (Self.preview(of: body).map { ": \($0)" } ?? " (\(content)).")
        case .parsing(let error, let statusCode, _, _):
            "The HTTP \(statusCode) response with \(content) could not be parsed: \(Self.explain(error))"
        case .encoding(let error):
            "The request body could not be encoded: \(Self.explain(error))"
        case .bodyTooLarge(let limit):
            "The response body is larger than the resource's limit of \(Self.count(limit))."
        }
    }

    /// The same text as ``description``, so `localizedDescription` is readable too.
    public var errorDescription: String? { description }

    /// The body's size and type, such as `12 bytes of application/json`.
    private var content: String {
        Self.count(body ?? Data()) + (value(forHTTPHeaderField: "Content-Type").map { " of \($0)" } ?? "")
    }

    private static func count(_ body: Data) -> String {
        count(body.count)
    }

    private static func count(_ bytes: Int) -> String {
        bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    /// The start of a textual body on one line, for error bodies such as `{"error": "not found"}`.
    private static func preview(of body: Data) -> String? {
        guard describesBodies else { return nil }
        let limit = min(body.count, 200)
        // Cut at a character boundary: a UTF-8 character split by the limit has at most three bytes before it.
        for length in stride(from: limit, to: max(limit - 4, 0), by: -1) {
            if let text = String(data: body.prefix(length), encoding: .utf8) {
                let line = String(text.map { $0.isWhitespace ? " " : $0 })
                return length < body.count ? line + "…" : line
            }
        }
        return nil
    }

    /// Describes a `DecodingError` by its coding path and a `URLError` by its code and reason; other errors as they
    /// describe themselves.
    private static func explain(_ error: any Error) -> String {
        if let error = error as? URLError {
            let reason = (error.userInfo[NSLocalizedDescriptionKey] as? String).map { ": \($0)" } ?? ""
            return "URLError \(error.code.rawValue)" + (name(of: error.code).map { " (\($0))" } ?? "") + reason
        }
        if let error = error as? DecodingError {
            return error.summary
        }
        return String(describing: error)
    }

    /// Names for the `URLError` codes a web service client meets most; Linux prints none of them by itself.
    private static func name(of code: URLError.Code) -> String? {
        switch code {
        case .cancelled: "cancelled"
        case .badURL: "bad URL"
        case .timedOut: "timed out"
        case .unsupportedURL: "unsupported URL"
        case .cannotFindHost: "cannot find host"
        case .cannotConnectToHost: "cannot connect to host"
        case .networkConnectionLost: "network connection lost"
        case .dnsLookupFailed: "DNS lookup failed"
        case .httpTooManyRedirects: "too many redirects"
        case .notConnectedToInternet: "not connected to the internet"
        case .badServerResponse: "bad server response"
        case .cannotParseResponse: "cannot parse response"
        case .secureConnectionFailed: "secure connection failed"
        case .serverCertificateUntrusted: "server certificate untrusted"
        default: nil
        }
    }
}

extension WebserviceError: CustomReflectable {
    /// A mirror that shows the error's parts with credential header values redacted, for `dump` and debuggers.
    public var customMirror: Mirror {
        let redacted = headers.map(Self.redacting)
        return switch self {
        case .transport(let error): Mirror(self, children: ["transport": error], displayStyle: .enum)
        case .nonHTTPResponse(let body): Mirror(self, children: ["nonHTTPResponse": body], displayStyle: .enum)
        case .unacceptableStatus(let statusCode, _, let body):
            Mirror(
                self,
                children: ["statusCode": statusCode, "headers": redacted as Any, "body": body],
                displayStyle: .enum
            )
        case .serverError(let error, let statusCode, _, let body), .parsing(let error, let statusCode, _, let body):
            Mirror(
                self,
                children: ["error": error, "statusCode": statusCode, "headers": redacted as Any, "body": body],
                displayStyle: .enum
            )
        case .encoding(let error): Mirror(self, children: ["encoding": error], displayStyle: .enum)
        case .bodyTooLarge(let limit): Mirror(self, children: ["bodyTooLarge": limit], displayStyle: .enum)
        }
    }

    private static func redacting(_ headers: [String: String]) -> [String: String] {
        headers.reduce(into: [:]) { result, field in
            result[field.key] = isSafeHeader(field.key) ? Redaction.scrub(field.value) : Redaction.mark
        }
    }
}

extension WebserviceError {
    /// Whether descriptions show the start of an error body, `true` unless you turn it off.
    ///
    /// Turn it off, once at launch, where a server may echo secrets in its error bodies; the bodies stay available
    /// through ``body``. Credentials in previews are redacted either way. (Apple systems before macOS 15 and iOS 18
    /// lack the lock it needs, and always show previews.)
    ///
    /// ```swift
    /// WebserviceError.describesBodies = false
    /// ```
    public static var describesBodies: Bool {
        get { BodyPreviewSwitch.isOn }
        set { BodyPreviewSwitch.isOn = newValue }
    }
}
