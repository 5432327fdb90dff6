#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
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
    /// It is part of ResourceKit when you enable the package's `AsyncHTTPClient` trait, which is off by default (the
    /// default build has no dependencies):
    ///
    /// ```swift
    /// .package(url: "https://github.com/example/ResourceKit", from: "1.0.0", traits: ["AsyncHTTPClient"])
    /// ```
    ///
    /// ```swift
    /// let webservice = Webservice(transport: AsyncHTTPClientTransport())
    /// let episodes = try await webservice.load(Episode.all)
    /// ```
    ///
    /// It behaves like ResourceKit's `URLSession` transport:
    ///
    /// - **Redirects:** it follows `301`, `302`, `303`, `307` and `308` itself, up to ``maxRedirects``, and keeps only
    ///   harmless header fields (and your ``crossOriginSafeHeaders``) when a redirect leaves the original origin.
    ///   `303`, and `301`/`302` after a `POST`, continue as a `GET` without the body. A redirect to a scheme other
    ///   than `http` or `https` is not followed. This needs a client that returns redirects rather than following
    ///   them, as ``init()``'s does; see ``init(client:)``.
    /// - **Errors:** connection failures, timeouts and dropped connections become the `URLError` codes `URLSession`
    ///   uses (`.cannotConnectToHost`, `.timedOut`, `.networkConnectionLost`), with AsyncHTTPClient's error as the
    ///   `NSUnderlyingErrorKey`; other AsyncHTTPClient errors pass through.
    /// - **Cancellation:** cancelling the loading task cancels the request and throws `CancellationError`.
    /// - **Timeouts:** the client's `timeout.read` is the idle timeout; a resource's ``Resource/timeout`` is enforced
    ///   by ``Webservice/load(_:)``, which cancels the request when it passes.
    /// - **Body limits:** with a ``Resource/maxBodySize`` it fails as soon as `Content-Length` or the bytes received
    ///   pass the limit, and closes the connection. Memory grows with the bytes received, never with what
    ///   `Content-Length` claims; a body over 4 GB fails with ``WebserviceError/bodyTooLarge(limit:)`` in any case.
    /// - **Headers:** it sends `User-Agent: ResourceKit/…` unless the request sets one, and fails with
    ///   `URLError(.cannotDecodeContentData)` for a `Content-Encoding` other than gzip or deflate.
    ///
    /// The body arrives in SwiftNIO buffers and is gathered into one, which becomes the `Data` handed to the parse
    /// without another copy.
    public struct AsyncHTTPClientTransport: Transport {
        /// The client that sends the requests.
        public let client: HTTPClient
        /// The most redirects to follow for one request, 20 by default, as browsers do.
        ///
        /// One more fails with `URLError(.httpTooManyRedirects)`.
        public var maxRedirects = 20
        /// Names of header fields of yours that carry no credential and may follow a redirect to another origin, such
        /// as `X-Request-ID`; only standard harmless fields do otherwise.
        public var crossOriginSafeHeaders: Set<String> = []

        /// How many times its compressed size a body may inflate to with ResourceKit's client: well above what JSON
        /// compresses by, far below a decompression bomb's 1 000.
        static let decompressionRatio = 100

        /// The largest body a `ByteBuffer` can gather, with room to spare below its 4 GiB capacity.
        static let largestBody = Int(clamping: 4_000_000_000 as Int64)

        /// Creates a transport with ResourceKit's shared client.
        ///
        /// The client lives as long as the process, on SwiftNIO's shared event loops. Its configuration is
        /// AsyncHTTPClient's browser-like `singletonConfiguration` (certificate verification, decompression), with
        /// changes that make it behave like `URLSession`: this transport follows redirects itself, the connect and read
        /// (idle) timeouts are 60 seconds, and a refused connection fails at once instead of being retried until the
        /// connect timeout; a body may inflate to at most 100 times its compressed size (a limited load then fails
        /// with ``WebserviceError/bodyTooLarge(limit:)``, another with `URLError(.cannotDecodeContentData)`).
        public init() {
            self.init(client: Self.sharedClient)
        }

        /// Creates a transport that sends requests with `client`.
        ///
        /// Create the client with `redirectConfiguration: .disallow` so the transport sees redirects and applies its
        /// credential rule. A client that follows redirects itself uses AsyncHTTPClient's rule instead, which drops
        /// only `Authorization`, `Proxy-Authorization` and `Cookie`. Enable its `decompression`, or gzip bodies reach
        /// the parse compressed, and turn off `connectionPool.retryConnectionEstablishment`, or a failed TLS handshake
        /// is retried until the connect timeout. You shut the client down when you no longer need it.
        ///
        /// ```swift
        /// var configuration = HTTPClient.Configuration()
        /// configuration.redirectConfiguration = .disallow
        /// configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        /// let client = HTTPClient(eventLoopGroup: .singletonMultiThreadedEventLoopGroup, configuration: configuration)
        /// let webservice = Webservice(transport: AsyncHTTPClientTransport(client: client))
        /// ```
        ///
        /// - Parameter client: The client to send requests with.
        public init(client: HTTPClient) {
            self.client = client
        }

        /// The client behind ``init()``.
        private static let sharedClient: HTTPClient = {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.redirectConfiguration = .disallow
            configuration.timeout = .init(connect: .seconds(60), read: .seconds(60))
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.decompression = .enabled(limit: .ratio(decompressionRatio))
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }()

        /// Sends `request` and gathers the whole response body.
        ///
        /// - Parameter request: The request to send, with an `http` or `https` URL.
        /// - Returns: The response body and the `HTTPURLResponse` of the final request, after any redirects.
        /// - Throws: `CancellationError` when the task is cancelled; a `URLError` such as `.cannotConnectToHost`,
        ///   `.timedOut`, `.networkConnectionLost`, `.unsupportedURL` or `.httpTooManyRedirects`; or another
        ///   AsyncHTTPClient or SwiftNIO error.
        public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            try await redactingErrors(of: request) { try await exchange(request, maxBodySize: nil) }
        }

        /// Runs an exchange for `original`, its `URLError`s redacted as ``Webservice`` reports
        /// them, so a caller using the transport alone never logs a credential either.
        private func redactingErrors(
            of original: URLRequest,
            _ operation: () async throws -> (Data, URLResponse)
        ) async throws -> (Data, URLResponse) {
            do {
                return try await operation()
            } catch let error as URLError {
                throw Redaction.sanitized(error, removing: Redaction.secrets(of: original))
            }
        }

        /// Sends `request` and gathers the response body, failing as soon as it is larger than `maxBodySize`.
        ///
        /// - Parameters:
        ///   - request: The request to send, with an `http` or `https` URL.
        ///   - maxBodySize: The largest body to read, in bytes.
        /// - Returns: The response body and the `HTTPURLResponse` of the final request, after any redirects.
        /// - Throws: ``WebserviceError/bodyTooLarge(limit:)`` when the body is larger; otherwise the errors of
        ///   ``data(for:)``.
        public func data(for request: URLRequest, maxBodySize: Int) async throws -> (Data, URLResponse) {
            try await redactingErrors(of: request) { try await exchange(request, maxBodySize: maxBodySize) }
        }

        /// Sends `original`, follows its redirects and gathers the final response's body.
        private func exchange(_ original: URLRequest, maxBodySize: Int?) async throws -> (Data, URLResponse) {
            try validateHeaderFields(original.allHTTPHeaderFields ?? [:])
            var request = original
            if request.value(forHTTPHeaderField: "User-Agent") == nil {
                request.setValue(defaultUserAgent, forHTTPHeaderField: "User-Agent")
            }
            let extraSafeHeaders = Set(crossOriginSafeHeaders.map { $0.lowercased() })
            for _ in 0...max(maxRedirects, 0) {
                guard let url = request.url else { throw URLError(.badURL) }
                let response = try await send(request, to: url)
                if let next = Self.redirect(
                    after: response, of: request, from: original, extraSafeHeaders: extraSafeHeaders)
                {
                    try await Self.discard(response.body)
                    request = next
                    continue
                }
                try Self.checkContentEncoding(of: response, url: url)
                let expectedLength = response.headers.first(name: "Content-Length").flatMap { Int($0) }
                let body = try await Self.gather(
                    response.body, expectedLength: expectedLength, maxBodySize: maxBodySize, url: url)
                return (body, try Self.httpResponse(response, url: url))
            }
            throw URLError(
                .httpTooManyRedirects,
                userInfo: [
                    NSLocalizedDescriptionKey: "The server redirected more than \(maxRedirects) times.",
                    NSURLErrorFailingURLErrorKey: original.url as Any,
                ])
        }

        /// Sends one request and returns the response's head, its body still to be read.
        private func send(_ request: URLRequest, to url: URL) async throws -> HTTPClientResponse {
            guard Self.isHTTP(url) else {
                throw URLError(
                    .unsupportedURL,
                    userInfo: [
                        NSLocalizedDescriptionKey: "AsyncHTTPClientTransport sends only http and https URLs.",
                        NSURLErrorFailingURLErrorKey: url,
                    ])
            }
            var outgoing = HTTPClientRequest(url: url.absoluteString)
            outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.httpMethod ?? "GET")
            for (name, value) in request.allHTTPHeaderFields ?? [:] {
                outgoing.headers.add(name: name, value: value)
            }
            if let body = request.httpBody {
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
            of request: URLRequest,
            from original: URLRequest,
            extraSafeHeaders: Set<String> = []
        ) -> URLRequest? {
            let status = response.status.code
            switch status {
            case 301, 302, 303, 307, 308: break
            default: return nil
            }
            guard let location = response.headers.first(name: "Location"),
                let base = request.url,
                let target = URL(string: location, relativeTo: base)?.absoluteURL,
                isHTTP(target)
            else { return nil }
            var next = request
            next.url = target
            let method = request.httpMethod ?? "GET"
            if (status == 303 && method != "HEAD") || ([301, 302].contains(status) && method == "POST") {
                next.httpMethod = "GET"
                next.httpBody = nil
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

        /// Gathers the body's buffers into one `Data`, failing once it passes `maxBodySize` or ``largestBody``.
        ///
        /// The buffer grows with the bytes that arrived, at most doubling, and never past the `expectedLength` the
        /// server announced or the limit: a `Content-Length` alone never makes it allocate. A body of one buffer is
        /// used as it is; the `Data` shares the buffer's storage rather than copying it.
        private static func gather(
            _ body: HTTPClientResponse.Body,
            expectedLength: Int?,
            maxBodySize: Int?,
            url: URL
        ) async throws -> Data {
            let limit = min(maxBodySize ?? largestBody, largestBody)
            if let expectedLength, expectedLength > limit {
                throw WebserviceError.bodyTooLarge(limit: limit)
            }
            var gathered: ByteBuffer?
            do {
                for try await chunk in body {
                    let size = (gathered?.readableBytes ?? 0) + chunk.readableBytes
                    if size > limit {
                        throw WebserviceError.bodyTooLarge(limit: limit)
                    }
                    guard var buffer = gathered else {
                        gathered = chunk
                        continue
                    }
                    gathered = nil  // leaves `buffer` the storage's only owner, so appending doesn't copy it
                    if buffer.writableBytes < chunk.readableBytes {
                        var capacity = min(size * 2, limit)
                        if let expectedLength, expectedLength >= size {
                            capacity = min(capacity, expectedLength)
                        }
                        buffer.reserveCapacity(minimumWritableBytes: capacity - buffer.readableBytes)
                    }
                    buffer.writeImmutableBuffer(chunk)
                    gathered = buffer
                }
            } catch let error as WebserviceError {
                throw error
            } catch let error as NIOHTTPDecompression.DecompressionError {
                // The client's decompression limit stopped a body that inflates far beyond what arrived: a bomb.
                if error == .limit, let maxBodySize { throw WebserviceError.bodyTooLarge(limit: maxBodySize) }
                let reason =
                    error == .limit
                    ? "The response body inflates to more than the client's decompression limit allows "
                        + "(\(decompressionRatio) times its compressed size for ResourceKit's client)."
                    : "The response body could not be decompressed (\(error))."
                throw URLError(
                    .cannotDecodeContentData,
                    userInfo: [
                        NSLocalizedDescriptionKey: reason, NSUnderlyingErrorKey: error,
                        NSURLErrorFailingURLErrorKey: url,
                    ])
            } catch {
                throw translate(error, url: url)
            }
            return gathered.map { Data(buffer: $0, byteTransferStrategy: .automatic) } ?? Data()
        }

        /// Throws when the response's `Content-Encoding` is one AsyncHTTPClient doesn't decode, rather than handing
        /// the encoded bytes to the parse.
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

        /// The `HTTPURLResponse` for `response`, with repeated header fields joined by commas.
        private static func httpResponse(_ response: HTTPClientResponse, url: URL) throws -> HTTPURLResponse {
            var fields: [String: String] = [:]
            for (name, value) in response.headers {
                fields[name] = fields[name].map { "\($0), \(value)" } ?? value
            }
            let version = "HTTP/\(response.version.major).\(response.version.minor)"
            guard
                let converted = HTTPURLResponse(
                    url: url, statusCode: Int(response.status.code), httpVersion: version, headerFields: fields)
            else {
                throw URLError(.cannotParseResponse, userInfo: [NSURLErrorFailingURLErrorKey: url])
            }
            return converted
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
            case is HTTPParserError:
                code = .networkConnectionLost
            case let error as NIOSSLExtraError
            where [.failedToValidateHostname, .serverHostnameImpossibleToMatch].contains(error):
                return URLError.tlsFailure(.serverCertificateUntrusted, reason: "\(error)", underlying: error, url: url)
            case let error as NIOSSLError:
                guard let code = tlsCode(error) else { return error }
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
                if reasons.contains("CERTIFICATE_REQUIRED") { return .clientCertificateRequired }
                return .secureConnectionFailed
            case .noCertificateToValidate, .unableToValidateCertificate, .cannotMatchULabel:
                return .serverCertificateUntrusted
            default:
                return nil
            }
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
#endif
