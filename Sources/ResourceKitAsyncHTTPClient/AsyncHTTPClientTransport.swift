#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import ResourceKitCore
    import ResourceKitBuiltIns
    internal import ResourceKitSupport
    import NIOCore
    import NIOFoundationCompat
    import NIOHTTP1
    import NIOHTTPCompression
    import NIOPosix
    import NIOSSL

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// A ``Transport`` that sends requests with AsyncHTTPClient, the SwiftNIO HTTP client: on Linux, several times
    /// the throughput of `URLSession`, with the same resources.
    ///
    /// It comes with the package's `AsyncHTTPClient` trait and behaves like ``URLSessionTransport``: redirects that
    /// keep credentials on their origin, `URLError` codes, cancellation, body limits; see <doc:Transports>.
    ///
    /// ```swift
    /// let webservice = Webservice(transport: AsyncHTTPClientTransport())
    /// ```
    public struct AsyncHTTPClientTransport: Transport {
        /// The client that sends the requests; with ``init(trust:hosts:)``, the one of `trust`, for hosts `hosts`
        /// doesn't name (each other policy has a client of its own).
        public let client: HTTPClient
        /// The most redirects to follow for one request, 20 by default; one more fails with
        /// `URLError(.httpTooManyRedirects)`.
        public var maxRedirects = 20
        /// Names of header fields of yours that carry no credential and may follow a redirect to another origin, such
        /// as `X-Request-ID`; only standard harmless fields do otherwise.
        public var crossOriginSafeHeaders: Set<String> = []
        /// The jar that keeps the cookies servers set and sends them back, on every redirect too.
        ///
        /// `nil`, the default, keeps none; see <doc:AuthenticatingRequests#Cookies>.
        public var cookies: CookieJar?
        /// The clients of ``init(trust:hosts:)``'s policies by host, each with its policy; `nil` otherwise.
        let routes: TrustHosts<TrustRoute>?
        /// The clients ``init(trust:hosts:)`` made, which shut down once no copy of the transport holds them.
        let owner: ClientOwner?

        /// How many times its compressed size a body may inflate to with ResourceKit's client: well above what JSON
        /// compresses by, far below a decompression bomb's 1 000.
        static let decompressionRatio = 100

        /// Creates a transport with ResourceKit's shared client, configured to behave like `URLSession` (timeouts,
        /// redirects, decompression limits); see <doc:Transports>.
        public init() {
            self.init(client: Self.sharedClient)
        }

        /// Creates a transport that sends requests with `client`, which you shut down when you no longer need it.
        ///
        /// Create the client with `redirectConfiguration: .disallow`, so this transport applies its credential rule
        /// to redirects, with `decompression` enabled, and with `tracing.tracer = nil` when you trace with
        /// `DistributedTracing`; see <doc:Transports>.
        public init(client: HTTPClient) {
            self.init(client: client, routes: nil, owner: nil)
        }

        /// A transport with `client`, or, when `routes` isn't `nil`, the client of each host's policy, which `owner`
        /// shuts down when it made them.
        init(client: HTTPClient, routes: TrustHosts<TrustRoute>?, owner: ClientOwner?) {
            self.client = client
            self.routes = routes
            self.owner = owner
        }

        /// The client behind ``init()``.
        private static let sharedClient = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)

        /// The configuration of ResourceKit's clients: like `URLSession` (timeouts, redirects, decompression limits).
        static var configuration: HTTPClient.Configuration {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.redirectConfiguration = .disallow
            configuration.timeout = .init(connect: .seconds(60), read: .seconds(60))
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.decompression = .enabled(limit: .ratio(decompressionRatio))
            // Up to 64 connections per host before requests queue, rather than 8: see <doc:Transports>.
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
            // No span of its own from the tracer the process bootstrapped: `DistributedTracing` traces each request,
            // and a second span would add a second `traceparent` (<doc:Observability#Tracing>).
            configuration.tracing.tracer = nil
            return configuration
        }

        /// Sends `request`, follows its redirects and returns the final response's head, with its body as it arrives;
        /// a file upload streams from its file.
        public func send(_ original: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            var request = original
            let (maxBodySize, progress) = (context.maxBodySize, context.progress)
            let extraSafeHeaders = Set(crossOriginSafeHeaders.map(asciiLowercased))
            // The file is the body until a redirect turns the request into a `GET` without one.
            let upload = request.body?.file
            let uploadSize = try upload.map { _ in try request.body?.length() } ?? nil
            let cookies = context.sendsCredentials ? cookies : nil
            // The first request as it went, with the `Cookie` of the last hop the jar added cookies to, for the
            // response's `request`.
            var first: Request?
            for _ in 0...max(maxRedirects, 0) {
                let url = request.url
                // Each hop carries the jar's cookies for its URL after the caller's own, which a redirect to another
                // origin dropped.
                var hop = request
                if let cookies {
                    let own = request.value(forHTTPHeaderField: "Cookie")
                    let field = cookies.headerValue(for: url, after: own)
                    hop.setValue(field, forHTTPHeaderField: "Cookie")
                    first = first ?? hop
                    if let field, field != own { first?.setValue(field, forHTTPHeaderField: "Cookie") }
                }
                let response = try await send(
                    hop, to: url, upload: request.body?.file, progress: progress, uploadSize: uploadSize)
                let setCookies = cookies == nil ? [] : response.headers["Set-Cookie"]
                if !setCookies.isEmpty {
                    cookies?.store(
                        Response(
                            statusCode: Int(response.status.code),
                            headerFields: setCookies.map { HeaderField(name: "Set-Cookie", value: $0) }, url: url))
                }
                if request.body?.file == nil, let body = try request.body?.bytes(), let progress {
                    // A body in memory went in one write: its progress is reported whole once the server answered.
                    progress(
                        TransferProgress(isUpload: true, bytes: Int64(body.count), expectedBytes: Int64(body.count))
                    )
                }
                if let next = Self.redirect(
                    after: response, of: request, from: original, extraSafeHeaders: extraSafeHeaders)
                {
                    try await Self.discard(response.body)
                    request = next
                    continue
                }
                var fields: [HeaderField] = []
                fields.reserveCapacity(response.headers.count)
                var encoded = false
                for (name, value) in response.headers {
                    // "Content-Encoding" in any letter case: the length first, cheaper than a comparison.
                    encoded = encoded || (name.utf8.count == 16 && sameHeaderName(name, "Content-Encoding"))
                    fields.append(HeaderField(name: name, value: value))
                }
                if encoded { try Self.checkContentEncoding(of: response, url: url) }
                var head = Response(statusCode: Int(response.status.code), headerFields: fields, body: Data(), url: url)
                head.request = first
                // A client of the transport's own stays up until the body is read, even if the transport is gone.
                let body = ArrivingBuffers(body: response.body, owner: owner, maxBodySize: maxBodySize, url: url)
                return (head, ResponseBody(body))
            }
            throw URLError(
                .httpTooManyRedirects,
                userInfo: [
                    NSLocalizedDescriptionKey: "The server redirected more than \(maxRedirects) times.",
                    NSURLErrorFailingURLErrorKey: original.url,
                ])
        }

        /// Sends one request, its body read from `upload` when there is one, with its `progress`, and returns the
        /// response's head, its body still to be read.
        private func send(
            _ request: Request,
            to url: URL,
            upload: URL?,
            progress: (@Sendable (TransferProgress) -> Void)?,
            uploadSize: Int64?
        ) async throws -> HTTPClientResponse {
            guard Self.isHTTP(url) else {
                throw URLError(
                    .unsupportedURL,
                    userInfo: [
                        NSLocalizedDescriptionKey: "AsyncHTTPClientTransport sends only http and https URLs.",
                        NSURLErrorFailingURLErrorKey: url,
                    ])
            }
            // Each hop by its host's policy: a redirect to another host goes through that host's client.
            let route = routes?.policy(for: url)
            try route?.trust.check(url)
            let client = route?.client ?? self.client
            var outgoing = HTTPClientRequest(url: url.absoluteString)
            outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method)
            var setsUserAgent = false
            // Room for the `User-Agent` too: the headers' array grows once, not with each field.
            outgoing.headers.reserveCapacity(request.headerFields.count + 1)
            for field in request.headerFields {
                try field.validate()
                setsUserAgent = setsUserAgent || sameHeaderName(field.name, "User-Agent")
                outgoing.headers.add(name: field.name, value: field.value)
            }
            if !setsUserAgent {
                outgoing.headers.add(name: "User-Agent", value: defaultUserAgent)
            }
            if let upload, let uploadSize {
                let chunks = FileChunks(
                    url: upload, eventLoops: Array(client.eventLoopGroup.makeIterator()),
                    counter: ProgressCounter(isUpload: true, expected: uploadSize, receiver: progress))
                outgoing.body = .stream(chunks, length: .known(uploadSize))
            } else if let body = try request.body?.bytes() {
                outgoing.body = .bytes(ByteBuffer(data: body))
            }
            do {
                return try await client.execute(outgoing, deadline: .distantFuture)
            } catch {
                throw Self.translate(error, url: url)
            }
        }

        /// The request that follows `response` when it is a redirect to an `http` or `https` URL.
        static func redirect(
            after response: HTTPClientResponse,
            of request: Request,
            from original: Request,
            extraSafeHeaders: Set<String> = []
        ) -> Request? {
            let status = response.status.code
            switch status {
            case 301, 302, 303, 307, 308: break
            default: return nil
            }
            guard let location = response.headers.first(name: "Location"),
                let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
                isHTTP(target)
            else { return nil }
            var next = request
            next.url = target
            let method = request.method
            if (status == 303 && method != "HEAD") || ([301, 302].contains(status) && method == "POST") {
                next.method = "GET"
                next.body = nil
                next.setValue(nil, forHTTPHeaderField: "Content-Type")
                next.setValue(nil, forHTTPHeaderField: "Content-Length")
            }
            return next.redirected(from: original, extraSafeHeaders: extraSafeHeaders)
        }

        /// Whether `url` is an `http` or `https` URL.
        private static func isHTTP(_ url: URL) -> Bool {
            switch url.scheme {
            case "http", "https": true
            case let scheme?: ["http", "https"].contains(scheme.lowercased())
            case nil: false
            }
        }

        /// Reads and drops a redirect's body, so the connection can carry the next request; a large one is abandoned
        /// and its connection closed instead.
        private static func discard(_ body: HTTPClientResponse.Body) async throws {
            var read = 0
            for try await chunk in body {
                read += chunk.readableBytes
                if read > 65_536 { return }
            }
        }

        /// An error reading a response body as ``Webservice`` reports it.
        fileprivate static func translateBodyError(_ error: any Error, maxBodySize: Int?, url: URL) -> any Error {
            switch error {
            case is WebserviceError, is URLError:
                return error
            case let error as NIOHTTPDecompression.DecompressionError:
                // The client's decompression limit stopped a body that inflates far beyond what arrived: a bomb.
                if error == .limit, let maxBodySize { return WebserviceError(.bodyTooLarge(limit: maxBodySize)) }
                let reason =
                    error == .limit
                    ? "The response body inflates to more than the client's decompression limit allows "
                        + "(\(decompressionRatio) times its compressed size for ResourceKit's client)."
                    : "The response body could not be decompressed (\(error))."
                return URLError(
                    .cannotDecodeContentData,
                    userInfo: [
                        NSLocalizedDescriptionKey: reason, NSUnderlyingErrorKey: error,
                        NSURLErrorFailingURLErrorKey: url,
                    ])
            default:
                return translate(error, url: url)
            }
        }

        /// Throws when the response's `Content-Encoding`, which it has, is one AsyncHTTPClient doesn't decode, rather
        /// than handing the encoded bytes to the parse.
        private static func checkContentEncoding(of response: HTTPClientResponse, url: URL) throws {
            let codings = response.headers[canonicalForm: "Content-Encoding"].map { $0.lowercased() }
            guard let unknown = codings.first(where: { !["identity", "gzip", "deflate"].contains($0) }) else { return }
            throw URLError(
                .cannotDecodeContentData,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The response's Content-Encoding \"\(unknown)\" is not one AsyncHTTPClient decodes (gzip, deflate).",
                    NSURLErrorFailingURLErrorKey: url,
                ])
        }

        /// `error` as the `URLError` `URLSession` would report, or `CancellationError` for a cancelled task.
        static func translate(_ error: any Error, url: URL) -> any Error {
            if error is CancellationError || error is URLError { return error }
            let code: URLError.Code
            switch error {
            case let error as HTTPClientError where error == .cancelled:
                return Task.isCancelled ? CancellationError() : URLError(.cancelled, userInfo: details(error, url))
            case let error as HTTPClientError
            where [.readTimeout, .writeTimeout, .connectTimeout, .deadlineExceeded].contains(error):
                code = .timedOut
            case let error as HTTPClientError where error == .remoteConnectionClosed:
                code = .networkConnectionLost
            case let error as HTTPClientError where [.invalidURL, .emptyHost, .emptyScheme].contains(error):
                code = .badURL
            case is NIOConnectionError:
                code = .cannotConnectToHost
            case let error as IOError where [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH].contains(error.errnoCode):
                code = .cannotConnectToHost
            case let error as IOError where [ECONNRESET, EPIPE].contains(error.errnoCode):
                code = .networkConnectionLost
            case let error as HTTPParserError where error == .invalidEOFState:
                // The connection closed inside the response: a body cut short.
                code = .networkConnectionLost
            case is HTTPParserError:
                // A head (or a body's framing) that isn't HTTP, or over the parser's 80 KiB: the same every time.
                code = .badServerResponse
            case let error as NIOSSLExtraError
            where [.failedToValidateHostname, .serverHostnameImpossibleToMatch].contains(error):
                return URLError.tlsFailure(.serverCertificateUntrusted, reason: "\(error)", underlying: error, url: url)
            case let error as UnpinnedServer:
                return CheckedTrust.unpinned(error.leaf, url: url)
            case let error as NIOSSLError:
                guard let code = tlsCode(error) else { return error }
                return URLError.tlsFailure(code, reason: "\(error)", underlying: error, url: url)
            case let error as BoringSSLError:
                // After the handshake: with TLS 1.3 a server refuses the client's certificate once the client
                // finished, so its alert arrives with the first read.
                let code = clientCertificateCode(details(error)) ?? .secureConnectionFailed
                return URLError.tlsFailure(code, reason: "\(error)", underlying: error, url: url)
            default:
                return error
            }
            return URLError(code, userInfo: details(error, url))
        }

        /// The code `URLSession` on Apple platforms uses for a failed TLS handshake, or `nil` for another TLS error.
        ///
        /// BoringSSL reports every failed certificate verification as `CERTIFICATE_VERIFY_FAILED`, without the reason
        /// (expired, unknown issuer, …), so all of them are `.serverCertificateUntrusted`.
        private static func tlsCode(_ error: NIOSSLError) -> URLError.Code? {
            switch error {
            case .handshakeFailed(let failure):
                let reasons = details(failure)
                if reasons.contains("CERTIFICATE_VERIFY_FAILED") { return .serverCertificateUntrusted }
                return clientCertificateCode(reasons) ?? .secureConnectionFailed
            case .noCertificateToValidate, .unableToValidateCertificate, .cannotMatchULabel:
                return .serverCertificateUntrusted
            default:
                return nil
            }
        }

        /// `.clientCertificateRequired` or `.clientCertificateRejected` when BoringSSL's `reasons` hold the server's
        /// alert about the client's certificate, or `nil`.
        private static func clientCertificateCode(_ reasons: String) -> URLError.Code? {
            if reasons.contains("CERTIFICATE_REQUIRED") { return .clientCertificateRequired }
            // Alerts the server sends; a client's own verification failure is `CERTIFICATE_VERIFY_FAILED`.
            let refusals = [
                "ALERT_UNKNOWN_CA", "ALERT_BAD_CERTIFICATE", "ALERT_CERTIFICATE_UNKNOWN", "ALERT_CERTIFICATE_EXPIRED",
                "ALERT_CERTIFICATE_REVOKED", "ALERT_UNSUPPORTED_CERTIFICATE", "ALERT_ACCESS_DENIED",
            ]
            return refusals.contains { reasons.contains($0) } ? .clientCertificateRejected : nil
        }

        private static func details(_ error: any Error, _ url: URL) -> [String: Any] {
            [
                NSLocalizedDescriptionKey: String(describing: error),
                NSUnderlyingErrorKey: error,
                NSURLErrorFailingURLErrorKey: url,
            ]
        }

        /// The names of BoringSSL's errors in `failure`, such as `CERTIFICATE_VERIFY_FAILED`.
        private static func details(_ failure: BoringSSLError) -> String {
            switch failure {
            case .sslError(let stack), .unknownError(let stack): stack.map(\.description).joined(separator: "; ")
            default: String(describing: failure)
            }
        }
    }

    /// A file's contents as buffers of 64 KiB, read as AsyncHTTPClient asks for them, counted for progress.
    ///
    /// AsyncHTTPClient pauses a request body's sequence a turn of its event loop after the connection stops taking
    /// bytes; a file read from the page cache outruns that by hundreds of megabytes. So after each mebibyte the
    /// sequence waits for the client's event loops to run what was already handed to them.
    private struct FileChunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let url: URL
        let eventLoops: [any EventLoop]
        let counter: ProgressCounter

        func makeAsyncIterator() -> Iterator {
            Iterator(url: url, eventLoops: eventLoops, counter: counter)
        }

        final class Iterator: AsyncIteratorProtocol {
            private let url: URL
            /// The file, opened at the first chunk, off the cooperative pool, as every file is (`SafeFile`).
            private var descriptor: Int32?
            private let eventLoops: [any EventLoop]
            private var counter: ProgressCounter
            private var chunks = 0
            private let allocator = ByteBufferAllocator()

            init(url: URL, eventLoops: [any EventLoop], counter: ProgressCounter) {
                self.url = url
                self.eventLoops = eventLoops
                self.counter = counter
            }

            deinit {
                if let descriptor { close(descriptor) }
            }

            func next() async throws -> ByteBuffer? {
                if descriptor == nil {
                    let path = url.path
                    descriptor = try? await offCooperativePool {
                        try SafeFile.open(path, O_RDONLY, followingLinks: true, owner: .anyone).descriptor
                    }
                }
                guard let descriptor else {
                    throw URLError(
                        .cannotOpenFile, userInfo: [NSLocalizedDescriptionKey: "The file body can't be read."])
                }
                chunks += 1
                if chunks.isMultiple(of: 16) {
                    for loop in eventLoops { try await loop.submit {}.get() }
                }
                var buffer = allocator.buffer(capacity: 65_536)
                var failed = false
                let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 65_536) { bytes in
                    let count = read(descriptor, bytes.baseAddress, 65_536)
                    failed = count < 0
                    return Swift.max(count, 0)
                }
                if failed {
                    let reason = "The file body can't be read: \(String(cString: strerror(errno)))."
                    throw URLError(.cannotOpenFile, userInfo: [NSLocalizedDescriptionKey: reason])
                }
                guard count > 0 else {
                    counter.end()?.report()
                    return nil
                }
                counter.add(count)?.report()
                return buffer
            }
        }
    }
    /// The buffers of a response's body, read in place, its errors as the web service reports them; it holds the
    /// transport's own client, if it has one, until the body is read.
    private struct ArrivingBuffers: AsyncSequence, Sendable {
        let body: HTTPClientResponse.Body
        let owner: ClientOwner?
        let maxBodySize: Int?
        let url: URL

        struct AsyncIterator: AsyncIteratorProtocol {
            var buffers: HTTPClientResponse.Body.AsyncIterator
            let sequence: ArrivingBuffers

            mutating func next() async throws -> ByteBufferView? {
                do {
                    return try await buffers.next()?.readableBytesView
                } catch {
                    throw AsyncHTTPClientTransport.translateBodyError(
                        error, maxBodySize: sequence.maxBodySize, url: sequence.url)
                }
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(buffers: body.makeAsyncIterator(), sequence: self)
        }
    }
#endif
