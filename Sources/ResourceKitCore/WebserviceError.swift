import Foundation
internal import ResourceKitSupport

/// Why ``Webservice/load(_:)->A`` could not produce a model, and for which request; or why a resource or a transport
/// could not be made.
///
/// It says what failed: its ``reason`` (with the underlying error, and the ``Response`` when one arrived), the
/// request's ``method`` and ``url`` (its credentials masked), and the ``attempts`` made. Its description is one line
/// for logs and never shows a credential; see <doc:ErrorHandling>.
///
/// ```swift
/// do {
///     let episodes = try await webservice.load(Episode.all)
/// } catch let error as WebserviceError where error.statusCode == 401 {
///     signIn()
/// }
/// ```
public struct WebserviceError: Error, Sendable {
    /// What went wrong.
    public enum Reason: Sendable {
        /// The transport failed before a response arrived, usually with a `URLError` such as `.timedOut`; its URLs
        /// and messages are redacted.
        case transport(any Error)
        /// The request could not be made: its body could not be encoded, a header field HTTP forbids (named, its value
        /// never shown), or a relative URL without a base to resolve it against (`URLError(.badURL)`).
        case encoding(any Error)
        /// The transport returned a response that is not an `HTTPURLResponse`.
        case nonHTTPResponse(body: Data)
        /// The server answered with a status code outside the resource's ``Resource/acceptableStatusCodes``.
        case unacceptableStatus(Response)
        /// The server answered with an unacceptable status and a body ``Resource/parseAPIError`` turned into the API's
        /// own error, such as `APIError(reason: "not found")`.
        case apiError(any Error, Response)
        /// The resource's ``Resource/parse`` threw on an accepted response, typically a `DecodingError`.
        case parsing(any Error, Response)
        /// The response body is larger than the resource's ``Resource/maxBodySize``, `limit` bytes.
        case bodyTooLarge(limit: Int)
        /// ``Authentication``'s credential provider failed to give a credential; its error is redacted.
        case authentication(any Error)
        /// The resource's ``Resource/timeout``, `after` seconds, passed before the response arrived; the transport's
        /// own timeout is ``transport(_:)`` with `URLError(.timedOut)`.
        case timedOut(after: TimeInterval)
        /// A ``CachePolicy/storedOnly`` load found no stored response, or its web service has no cache: nothing was
        /// sent.
        case notStored
        /// The request may carry no credentials (a page on another origin), but its transport adds its own to every
        /// request, so it refused it (``LoadContext/sendsCredentials``): it was not sent.
        case credentialsRefused
        /// A stream's elements were iterated a second time; they can be iterated once.
        case alreadyIterated
        /// A stream's body broke off after its response arrived, with the transport's error (redacted), such as
        /// `URLError(.networkConnectionLost)`: the loop got `elements` elements, framed from `bytes` bytes of the
        /// body, before the break. See <doc:StreamingResponses#Limits-errors-and-cancellation>.
        case interrupted(any Error, Response, elements: Int, bytes: Int)
        /// A transport can't apply a ``TrustPolicy``: thrown by the initializers that take one, never by a load.
        ///
        /// `argument` is the policy's argument that can't be read — `"additionalRoots"`, `"pinnedKeys"` or
        /// `"clientIdentity"` (or its password), or the transport's `"hosts"` — and `index` the element of it; both are
        /// `nil` for a transport that can't enforce any policy but the default (`URLSession` on Linux). See
        /// <doc:Transports#Trust>.
        case unusableTrustPolicy(argument: String?, index: Int?)
    }

    /// What went wrong.
    public var reason: Reason
    /// The method of the request that failed, such as `GET`; `nil` when the error arose outside a load.
    public var method: String?
    /// The URL of the request that failed, with its credentials masked; `nil` when the error arose outside a load.
    public var url: URL?
    /// The attempts the load made before it failed: more than 1 when ``RetryPolicy`` retried it.
    public var attempts = 1

    /// An error for `reason`, outside a load: without a request or attempts.
    ///
    /// ```swift
    /// throw WebserviceError(.bodyTooLarge(limit: 1_000_000))
    /// ```
    public init(_ reason: Reason) {
        self.reason = reason
    }

    /// The HTTP response, when one arrived with an unacceptable status or a body that could not be parsed.
    public var response: Response? {
        switch reason {
        case .unacceptableStatus(let response), .apiError(_, let response), .parsing(_, let response),
            .interrupted(_, let response, _, _):
            response
        case .transport, .encoding, .nonHTTPResponse, .bodyTooLarge, .authentication, .timedOut, .notStored,
            .credentialsRefused, .alreadyIterated, .unusableTrustPolicy:
            nil
        }
    }

    /// The response's HTTP status code, when a response arrived.
    public var statusCode: Int? { response?.statusCode }

    /// The response body, when a response arrived.
    public var body: Data? {
        if case .nonHTTPResponse(let body) = reason { body } else { response?.body.data }
    }

    /// This error as the load of `request` reports it: with the request's method and its URL without credentials,
    /// and the attempts its response counts when they say more; what it knows already stays.
    ///
    /// Only `Webservice.reported(_:of:)` calls it: the request is attached in that one place.
    func failing(_ request: Request) -> WebserviceError {
        var error = counting(attempts: response?.attempts ?? 1)
        if error.method == nil {
            error.method = request.method
            error.url = request.redactedURL
        }
        return error
    }

    /// This error after `attempts` attempts, when that says more than it knows already.
    func counting(attempts: Int) -> WebserviceError {
        var error = self
        error.attempts = max(error.attempts, attempts)
        return error
    }

    /// The error that caused this one: the transport's (before a response or during its body), the API's own, the parse's, the encoder's or the credential
    /// provider's.
    public var underlyingError: (any Error)? {
        switch reason {
        case .transport(let error), .encoding(let error), .apiError(let error, _), .parsing(let error, _),
            .authentication(let error), .interrupted(let error, _, _, _):
            error
        case .nonHTTPResponse, .unacceptableStatus, .bodyTooLarge, .timedOut, .notStored, .credentialsRefused,
            .alreadyIterated, .unusableTrustPolicy:
            nil
        }
    }
}

extension WebserviceError: CustomStringConvertible, LocalizedError {
    /// A one-line account of the failure for logs, with credentials redacted.
    public var description: String {
        // The URL was redacted when the error got it; scrubbing it again would take the colon after it for a value.
        let request = method.map { "\($0) \(url?.absoluteString ?? "(no URL)"): " } ?? ""
        return request + Redaction.scrub(unredactedDescription, removing: secrets)
            + (attempts > 1 ? " (\(attempts) attempts)" : "")
    }

    /// The credentials of the failed request, when a response to it arrived.
    private var secrets: [String] { response?.secrets ?? [] }

    private var unredactedDescription: String {
        switch reason {
        case .transport(let error):
            "The request failed before a response arrived: \(ErrorText.explain(error))"
        case .interrupted(let error, let response, let elements, let bytes):
            "The HTTP \(response.statusCode) response's body broke off after \(elements) "
                + "element\(elements == 1 ? "" : "s") in \(ErrorText.count(bytes)): \(ErrorText.explain(error))"
        case .nonHTTPResponse(let body):
            "The response was not an HTTP response (\(ErrorText.count(body)))."
        case .unacceptableStatus(let response):
            "The server answered HTTP \(response.statusCode) with \(response.content)"
                + (ErrorText.preview(of: response.body.data ?? Data(), removing: secrets, shown: Self.describesBodies)
                    .map { ": \($0)" } ?? ".")
        case .apiError(let error, let response):
            "The server answered HTTP \(response.statusCode) with \(type(of: error))"
                + (ErrorText.preview(of: response.body.data ?? Data(), removing: secrets, shown: Self.describesBodies)
                    .map { ": \($0)" }
                    ?? " (\(response.content)).")
        case .parsing(let error, let response):
            "The HTTP \(response.statusCode) response with \(response.content) could not be parsed: \(ErrorText.explain(error))"
        case .encoding(let error):
            "The request could not be made: \(ErrorText.explain(error))"
        case .bodyTooLarge(let limit):
            "The response body is larger than the resource's limit of \(ErrorText.count(limit))."
        case .authentication(let error):
            "No credential could be obtained: \(ErrorText.explain(error))"
        case .timedOut(let seconds):
            "The resource's timeout of \(seconds) s passed before the response arrived."
        case .notStored:
            "No stored response answers the request, and its cache policy, storedOnly, never uses the network."
        case .credentialsRefused:
            "The request goes to another origin than the one the resource names, and may carry no credentials, but "
                + "the transport adds its own to every request (header fields or cookies): it was not sent."
        case .alreadyIterated:
            "A stream's elements can be iterated once, and these were already."
        case .unusableTrustPolicy("pinnedKeys", let index):
            "TrustPolicy.pinnedKeys\(Self.element(index)) is not the base64 of a 32-byte SHA-256 digest of a public key."
        case .unusableTrustPolicy("additionalRoots", let index):
            "TrustPolicy.additionalRoots\(Self.element(index)) is not a PEM or DER certificate."
        case .unusableTrustPolicy("clientIdentity", _):
            "TrustPolicy.clientIdentity is not a PKCS#12 archive or PEM with a certificate and one private key, or its "
                + "password is wrong (or, on Apple platforms, it is PEM, which only a keychain could open)."
        case .unusableTrustPolicy("hosts", _):
            "A key of the transport's hosts is not a host name, an IP address or *. followed by a host name."
        case .unusableTrustPolicy(let argument?, let index):
            "TrustPolicy's \(argument)\(Self.element(index)) can't be used."
        case .unusableTrustPolicy(nil, _):
            "This transport can't enforce a TrustPolicy's additional roots, pinned keys or client identity (URLSession "
                + "on Linux can't); use AsyncHTTPClientTransport(trust:hosts:)."
        }
    }

    /// `[index]`, or nothing for no index.
    private static func element(_ index: Int?) -> String {
        index.map { "[\($0)]" } ?? ""
    }

    /// The same text as ``description``, so `localizedDescription` is readable too.
    public var errorDescription: String? { description }
}

extension Response {
    /// The body's size and content type, for descriptions: "12 bytes of application/json".
    fileprivate var content: String {
        ErrorText.count(body.data ?? Data())
            + (value(forHTTPHeaderField: "Content-Type").map { " of \($0)" } ?? "")
    }
}

extension WebserviceError {
    /// Whether descriptions show up to the first 200 bytes of an error response's body; `true` unless you turn it off.
    ///
    /// It is one switch for the whole process; see <doc:ErrorHandling>.
    public static var describesBodies: Bool {
        get { bodyPreviews.value }
        set { bodyPreviews.value = newValue }
    }

    /// The switch behind ``describesBodies``.
    private static let bodyPreviews = ProcessWide(true)

    /// The names of query items, form fields and JSON fields whose values are credentials, whatever their type:
    /// `api_key`, `appid`, `password`, `pin`, …; add your API's own at launch.
    ///
    /// Names match in any letter case, with or without `_` and `-`. Descriptions, events, cURL commands and
    /// recordings show `REDACTED` for their values; the list, and the rules beside it, are in
    /// <doc:ErrorHandling#Redaction>. It is one list for the whole process.
    ///
    /// ```swift
    /// WebserviceError.credentialNames.insert("partner_code")
    /// ```
    public static var credentialNames: Set<String> {
        get { Redaction.names.value.given }
        set { Redaction.names.value = Redaction.Names(newValue) }
    }
}
