import AsyncHTTPClient
import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The one place that makes ResourceKit's transports for the suite.

/// A transport the suite runs a test with.
///
/// A test that talks to the server takes each as its argument, `@Test(arguments: TransportKind.allCases)`, so a
/// failure shows as `test(urlSession)` next to `test(asyncHTTPClient)`.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// ResourceKit's own `URLSession` transport, which an app gets from `Webservice()`.
    case urlSession
    /// `AsyncHTTPClientTransport()`, with ResourceKit's shared client.
    case asyncHTTPClient
    /// `PublicTransport`, written against the public API alone over AsyncHTTPClient: not in `allCases`, only in the
    /// contract's tests.
    case publicAPI
    /// `PublicSessionTransport`, written against the public API alone over `URLSession`: only in the contract's tests.
    case publicSession

    /// The two transports every test that talks to the server runs with.
    static var allCases: [TransportKind] { [.urlSession, .asyncHTTPClient] }
    /// Both, and a transport of a user's own: the tests of what the transport contract promises.
    static let contract = allCases + [.publicAPI, .publicSession]

    var testDescription: String { rawValue }

    /// A web service with this transport, a limiter, a cache, `middleware` and `observer`; `crossOriginSafeHeaders`
    /// may follow a redirect to another origin.
    func webservice(
        baseURL: URL? = nil, crossOriginSafeHeaders: Set<String> = [], maxConcurrentLoads: Int? = nil,
        cache: ResponseCache? = nil, middleware: [any Middleware] = [],
        observer: (@Sendable (WebserviceEvent) -> Void)? = nil
    ) -> Webservice {
        switch self {
        case .urlSession where crossOriginSafeHeaders.isEmpty:
            return Webservice(
                baseURL: baseURL, maxConcurrentLoads: maxConcurrentLoads, cache: cache, middleware: middleware,
                observer: observer)
        case .urlSession:
            return Webservice(
                baseURL: baseURL,
                transport: URLSessionTransport(
                    configuration: .ephemeral, crossOriginSafeHeaders: crossOriginSafeHeaders),
                maxConcurrentLoads: maxConcurrentLoads, cache: cache, middleware: middleware, observer: observer)
        case .asyncHTTPClient:
            var transport = AsyncHTTPClientTransport()
            transport.crossOriginSafeHeaders = crossOriginSafeHeaders
            return Webservice(
                baseURL: baseURL, transport: transport, maxConcurrentLoads: maxConcurrentLoads, cache: cache,
                middleware: middleware, observer: observer)
        case .publicAPI, .publicSession:
            return Webservice(
                baseURL: baseURL, transport: transport(), maxConcurrentLoads: maxConcurrentLoads, cache: cache,
                middleware: middleware, observer: observer)
        }
    }

    /// A web service with a transport of this kind that keeps its cookies in `cookies`, and `cache`; for
    /// `URLSession`, from a configuration with a cookie storage of its own, which the jar turns off.
    func webservice(cookies: CookieJar, cache: ResponseCache? = nil) -> Webservice {
        switch self {
        case .urlSession, .publicSession:
            return Webservice(
                transport: URLSessionTransport(configuration: .ephemeral, cookies: cookies), cache: cache)
        case .asyncHTTPClient, .publicAPI:
            var transport = AsyncHTTPClientTransport()
            transport.cookies = cookies
            return Webservice(transport: transport, cache: cache)
        }
    }

    /// A transport of this kind, as a web service of this kind has (with a session of its own for `URLSession`).
    func transport() -> any Transport {
        switch self {
        case .urlSession: URLSessionTransport()
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        case .publicAPI: PublicTransport()
        case .publicSession: PublicSessionTransport.shared
        }
    }

    /// A transport of this kind that applies `policy`, and `hosts`' policies to their hosts.
    func transport(trust policy: TrustPolicy, hosts: [String: TrustPolicy] = [:]) throws(WebserviceError)
        -> any Transport
    {
        switch self {
        case .urlSession: try URLSessionTransport(configuration: .ephemeral, trust: policy, hosts: hosts)
        case .asyncHTTPClient, .publicAPI, .publicSession: try AsyncHTTPClientTransport(trust: policy, hosts: hosts)
        }
    }

    /// Runs `body` with a web service whose transport of this kind applies `policy`, and `hosts`' policies to their
    /// hosts; for `URLSession` on Linux, which can't enforce a policy, checks instead that the transport refuses it
    /// (and any but the default).
    func withWebservice(
        trust policy: TrustPolicy, hosts: [String: TrustPolicy] = [:], _ body: (Webservice) async throws -> Void
    ) async throws {
        #if canImport(FoundationNetworking)
            if self == .urlSession, !([policy] + hosts.values).allSatisfy(\.isDefault) {
                let error = #expect(throws: WebserviceError.self) { try transport(trust: policy, hosts: hosts) }
                #expect(error?.unusablePolicyArgument == "-")
                return
            }
        #endif
        try await body(Webservice(transport: transport(trust: policy, hosts: hosts)))
    }

    /// Runs `body` with a web service of this transport whose idle timeout (no byte for that long) is `seconds`:
    /// the session's `timeoutIntervalForRequest`, or the client's `timeout.read`.
    func withWebservice(idleTimeout seconds: Int, _ body: (Webservice) async throws -> Void) async throws {
        switch self {
        case .urlSession, .publicSession:
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = TimeInterval(seconds)
            try await body(.urlSession(configuration))
        case .asyncHTTPClient, .publicAPI:
            var configuration = HTTPClient.Configuration()
            configuration.redirectConfiguration = .disallow
            configuration.timeout.read = .seconds(Int64(seconds))
            try await withHTTPClient(configuration) { client in
                try await body(Webservice(transport: AsyncHTTPClientTransport(client: client)))
            }
        }
    }
}

extension Webservice {
    /// A web service with ResourceKit's `URLSession` transport, made from `configuration`, for what only a session's
    /// configuration says.
    static func urlSession(
        _ configuration: URLSessionConfiguration, crossOriginSafeHeaders: Set<String> = [], cache: ResponseCache? = nil
    ) -> Webservice {
        Webservice(
            transport: URLSessionTransport(
                configuration: configuration, crossOriginSafeHeaders: crossOriginSafeHeaders),
            cache: cache)
    }
}

/// Runs `body` with an AsyncHTTPClient client of `configuration`, and shuts the client down, also when `body` throws.
func withHTTPClient(_ configuration: HTTPClient.Configuration, _ body: (HTTPClient) async throws -> Void)
    async throws
{
    let client = HTTPClient(eventLoopGroup: .singletonMultiThreadedEventLoopGroup, configuration: configuration)
    try await run({ try await body(client) }, thenCleanUp: { try await client.shutdown() })
}
