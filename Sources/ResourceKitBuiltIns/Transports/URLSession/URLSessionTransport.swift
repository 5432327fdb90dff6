import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ``Transport`` that sends requests with `URLSession`: the one behind
/// ``Webservice/init(baseURL:transport:maxConcurrentLoads:cache:middleware:observer:)`` by default.
///
/// Made with a configuration, it owns its session and keeps credentials on their origin across redirects, and on
/// Linux mends FoundationNetworking's faults; made with a caller's session, it sends through it as it is. See
/// <doc:Transports>.
///
/// ```swift
/// let configuration = URLSessionConfiguration.default
/// configuration.httpAdditionalHeaders = ["Authorization": "Bearer \(token)"]
/// let webservice = Webservice(transport: URLSessionTransport(configuration: configuration))
/// ```
public final class URLSessionTransport: Transport {
    /// The transport behind `Webservice()`.
    @usableFromInline static let shared = URLSessionTransport()

    private let session: URLSession
    /// Whether this transport made ``session``, with a ``SessionDelegate``, and so also invalidates it.
    private let ownsSession: Bool
    /// The trust policies by host, which refuse some URLs unsent (``CheckedTrust/check(_:)``); `nil` without one.
    private let trust: TrustHosts<CheckedTrust>?
    /// The header fields this transport adds to each request that doesn't set them itself: its configuration's
    /// `httpAdditionalHeaders`, and for a session of its own a default `User-Agent`.
    private let headerFields: [HeaderField]
    /// The jar that keeps every response's cookies and adds them to every request that may carry credentials.
    private let cookies: CookieJar?

    /// Creates a transport with its own session for `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration, copied; by default `.default` without URLCache or cookies.
    ///   - crossOriginSafeHeaders: Header names besides the built-in safe ones that may follow a redirect to another
    ///     origin.
    ///   - cookies: The jar that keeps the cookies servers set and sends them back, on every redirect too, with the
    ///     session's own cookie storage off; `nil` keeps none.
    public convenience init(
        configuration: URLSessionConfiguration = .resourceKitDefault,
        crossOriginSafeHeaders: Set<String> = [],
        cookies: CookieJar? = nil
    ) {
        self.init(
            configuration: configuration, crossOriginSafeHeaders: crossOriginSafeHeaders, cookies: cookies,
            checked: nil)
    }

    /// Creates a transport with its own session for `configuration` that applies `trust` to every server but those
    /// `hosts` names, which get theirs, on Apple platforms; see <doc:Transports#Trust>.
    ///
    /// On Linux, `URLSession` can't enforce a policy with roots, pins, a minimum version or an identity: use
    /// `AsyncHTTPClientTransport(trust:hosts:)` there.
    ///
    /// - Throws: ``WebserviceError/Reason/unusableTrustPolicy(argument:index:)`` when a pin, a root or an identity
    ///   can't be read, or a key of `hosts` isn't a host; on Linux, for any policy but the default.
    public convenience init(
        configuration: URLSessionConfiguration = .resourceKitDefault,
        crossOriginSafeHeaders: Set<String> = [],
        cookies: CookieJar? = nil,
        trust: TrustPolicy,
        hosts: [String: TrustPolicy] = [:]
    ) throws(WebserviceError) {
        let policies = try TrustHosts(fallback: trust, hosts: hosts)
        let checked = try policies.map { policy throws(WebserviceError) in try policy.checked() }
        let isDefault = policies.policies.allSatisfy(\.isDefault)
        #if canImport(FoundationNetworking)
            guard isDefault else { throw WebserviceError.trustUnsupportedByTransport }
        #else
            for policy in checked.policies { try SessionDelegate.check(policy) }
            let configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
            SessionDelegate.require(checked.strictestTLSVersion, in: configuration)
        #endif
        self.init(
            configuration: configuration, crossOriginSafeHeaders: crossOriginSafeHeaders, cookies: cookies,
            checked: isDefault ? nil : checked)
    }

    /// A transport with its own session for `configuration`, whose delegate applies `checked` when it isn't `nil`.
    private init(
        configuration: URLSessionConfiguration, crossOriginSafeHeaders: Set<String>, cookies: CookieJar?,
        checked: TrustHosts<CheckedTrust>?
    ) {
        let configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
        if cookies != nil {
            // One jar: the session's storage neither adds cookies nor keeps them.
            configuration.httpCookieStorage = nil
            configuration.httpCookieAcceptPolicy = .never
            configuration.httpShouldSetCookies = false
        }
        self.cookies = cookies
        // Set on each request instead, where the delegate sees them on a redirect, with a default `User-Agent`.
        headerFields = Self.headerFields(of: configuration, adding: ["User-Agent": defaultUserAgent])
        configuration.httpAdditionalHeaders = nil
        session = URLSession(
            configuration: configuration,
            delegate: SessionDelegate(
                extraSafeHeaders: Set(crossOriginSafeHeaders.map(asciiLowercased)), trust: checked),
            delegateQueue: Self.delegateQueue()
        )
        ownsSession = true
        trust = checked
    }

    /// The queue for the own session's delegate, whose calls never wait: on Linux one that runs each call on curl's
    /// thread (``InlineQueue``); on Apple platforms the serial queue `URLSession` makes for `nil`.
    private static func delegateQueue() -> OperationQueue? {
        #if canImport(FoundationNetworking)
            InlineQueue()
        #else
            nil
        #endif
    }

    /// Creates a transport that sends through `session` as it is, with its own delegate and configuration.
    ///
    /// On Linux, its redirects keep every header field (a per-task delegate can't filter them there).
    public init(session: URLSession) {
        self.session = session
        ownsSession = false
        trust = nil
        cookies = nil
        headerFields = Self.headerFields(of: session.configuration, adding: [:])
    }

    /// Whether the session would add credentials to a request for `url` that the request can't leave out: header
    /// fields of a caller's session that aren't safe to send to another origin, or, on Linux, where
    /// FoundationNetworking ignores `httpShouldHandleCookies`, cookies it holds for `url`.
    private func addsCredentials(to url: URL) -> Bool {
        let configuration = session.configuration
        if (configuration.httpAdditionalHeaders ?? [:]).keys.contains(where: { !isSafeHeader("\($0)") }) {
            return true
        }
        #if canImport(FoundationNetworking)
            let cookies = configuration.httpShouldSetCookies ? configuration.httpCookieStorage?.cookies(for: url) : nil
            if cookies?.isEmpty == false { return true }
        #endif
        return false
    }

    deinit {
        if ownsSession {
            session.finishTasksAndInvalidate()
        }
    }

    /// Sends `request` with the header fields of its configuration that it doesn't set itself (only the safe ones when
    /// it may carry no credentials), and returns that request as the response's ``Response/request``.
    ///
    /// With its own session, the head comes as soon as it arrives and the body follows as the session reads it; with
    /// a caller's session, the body comes whole, and a ``LoadContext/maxBodySize`` stops it early. A request that may
    /// carry no credentials (``LoadContext/sendsCredentials``) is refused, unsent, when the session would add its own
    /// that the request can't leave out: a caller's session's header fields, or cookies on Linux.
    public func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        let sent = adding(headerFields, to: request, context: context)
        let cookies = context.sendsCredentials ? cookies : nil
        // The first request as it went, with the `Cookie` of the last hop the jar added cookies to.
        var (response, body, jarCookie) = try await transmit(sent, cookies: cookies, context: context)
        response.request = sent
        if let jarCookie { response.request?.setValue(jarCookie, forHTTPHeaderField: "Cookie") }
        return (response, body)
    }

    /// `request` with the fields of `added` it doesn't set itself; without those that aren't safe to send anywhere
    /// (credentials) when the request may carry none.
    private func adding(_ added: [HeaderField], to request: Request, context: LoadContext) -> Request {
        var request = request
        for field in added where request.value(forHTTPHeaderField: field.name) == nil {
            if context.sendsCredentials || isSafeHeader(field.name) { request.headerFields.append(field) }
        }
        return request
    }

    /// Sends `request`, with the header fields this transport adds, through the session; with `cookies`' on each hop.
    private func transmit(_ request: Request, cookies: CookieJar?, context: LoadContext) async throws -> (
        Response, ResponseBody, jarCookie: String?
    ) {
        var sent = URLRequest(head: request)
        try sent.requireHTTP()
        try requireSecure(sent)
        if !context.sendsCredentials {
            guard !addsCredentials(to: request.url) else { throw WebserviceError(.credentialsRefused) }
            sent.httpShouldHandleCookies = false
        }
        let upload = request.body?.file
        if upload == nil { sent.httpBody = try request.body?.bytes() }
        if let delegate = session.delegate as? SessionDelegate {
            return try await delegate.send(
                sent, in: session, upload: upload, maxBodySize: context.maxBodySize, backlog: Self.streamBacklog,
                cookies: cookies, progress: context.progress)
        }
        // A caller's session: the file is read into memory first, and its upload's progress reported once the
        // response arrived.
        if let upload { sent.httpBody = try await offCooperativePool { try upload.regularFileContents() } }
        let (body, response) = try await send(sent, limit: context.maxBodySize)
        guard let http = response as? HTTPURLResponse else { throw WebserviceError(.nonHTTPResponse(body: body)) }
        if upload != nil, let bytes = sent.httpBody.map({ Int64($0.count) }) {
            context.progress?(TransferProgress(isUpload: true, bytes: bytes, expectedBytes: bytes))
        }
        return (Response(http, body: Data()), ResponseBody(body), nil)
    }

    /// The bytes of a body that may wait for its reader in memory before they wait on disk: the delegate's thread never
    /// waits for a stream's loop (on Linux, curl's would stall every other load of the process; see
    /// <doc:StreamingResponses>).
    static let streamBacklog = 1 << 20

    /// Sends `request` through a caller's session with a per-task delegate that enforces `limit`.
    private func send(_ request: URLRequest, limit: Int?) async throws -> (Data, URLResponse) {
        do {
            return try await session.data(for: request, delegate: limit.map(BodySizeLimiter.init))
        } catch let error as URLError where error.code == .cancelled && !Task.isCancelled {
            // Nothing but the limiter cancels the task while the caller's task goes on.
            guard let limit else { throw error }
            throw WebserviceError(.bodyTooLarge(limit: limit))
        } catch {
            // A TLS or decoding failure that Linux reports as `URLError(.unknown)` gets the code Apple platforms use,
            // as on the transport's own session.
            throw URLError.standardizing(error)
        }
    }

    /// Throws for a request its host's trust policy refuses unsent: an `http` one when it pins keys (a plain
    /// connection has none to check), any when it trusts nothing.
    private func requireSecure(_ request: URLRequest) throws {
        guard let trust, let url = request.url else { return }
        try trust.policy(for: url).check(url)
    }

    /// `defaults` with the configuration's `httpAdditionalHeaders` as strings, which win over a default of the same
    /// name in any letter case.
    private static func headerFields(
        of configuration: URLSessionConfiguration,
        adding defaults: [String: String]
    ) -> [HeaderField] {
        var fields = defaults.map { HeaderField(name: $0.key, value: $0.value) }
        for case (let name as String, let value) in configuration.httpAdditionalHeaders ?? [:] {
            fields.set(value as? String ?? String(describing: value), named: name)
        }
        return fields
    }
}

extension URLSessionConfiguration {
    /// The configuration of ``URLSessionTransport/init(configuration:crossOriginSafeHeaders:cookies:)`` by default:
    /// `.default` without a `URLCache` or cookies.
    ///
    /// ``ResponseCache`` is ResourceKit's cache, and cookies are credentials a caller opts into. On Linux both cost
    /// more than the rest of a small load: FoundationNetworking looks each request up in `URLCache` (which never
    /// stores there) and parses every response header line for cookies.
    @usableFromInline static var resourceKitDefault: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        return configuration
    }
}
