import Foundation
import Hummingbird
import HummingbirdTLS
import ServiceLifecycle

/// An in-memory Episodes web service, modelled on objc.io's Swift Talk, for testing ResourceKit against a real HTTP
/// server.
///
/// Each server has its own store, seeded with three episodes, so tests can start one server each:
///
/// ```swift
/// let server = try await EpisodesServer.start()
/// defer { Task { await server.stop() } }
/// let url = server.baseURL.appendingPathComponent("episodes")  // http://127.0.0.1:54321/episodes
/// ```
///
/// Endpoints, all answering JSON (`application/json; charset=utf-8`), errors as
/// `{"error":"not_found","reason":"No episode with id 99"}`:
///
/// - `GET /episodes`, `GET /episodes/:id`, `GET /episodes/:id/media`
/// - `POST /episodes` (201 and `Location`), `PUT` and `PATCH /episodes/:id`, `DELETE /episodes/:id` (204)
/// - `GET /account`, which requires `Authorization: Bearer swift-talk-token` or a session's token; `POST` and
///   `DELETE /account/session`, which sign in (`{"token": "…"}`) and out
/// - `GET /echo?id=…`, which answers `{"id":"…"}` and `X-Echo-Id: …`, for load tests
public enum EpisodesServer {
    /// Starts a server on `host` and waits until it is listening.
    ///
    /// The server logs only critical messages unless the `LOG_LEVEL` environment variable names a level, such as
    /// `LOG_LEVEL=debug`.
    ///
    /// - Parameters:
    ///   - host: The address to bind. Defaults to the IPv4 loopback address.
    ///   - port: The port to bind. Defaults to 0: an ephemeral port the system picks.
    ///   - tls: The certificate and key to serve HTTPS with, such as
    ///     `.makeServerConfiguration(certificateChain: [.certificate(leaf)], privateKey: .privateKey(key))`. Defaults to
    ///     `nil`: plain HTTP.
    ///   - configure: Adds extra routes, such as `router.addFaultRoutes()`; see ``makeRouter(configure:)``.
    /// - Returns: The running server, with the URL it listens on.
    /// - Throws: ``StartError`` when the host can't form a URL or the server stops before listening, and the
    ///   error of a failed bind, such as an address in use.
    public static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        tls: TLSConfiguration? = nil,
        configure: @Sendable (Router<BasicRequestContext>) -> Void = { _ in }
    ) async throws -> RunningServer {
        let authority = host.contains(":") ? "[\(host)]" : host
        let scheme = tls == nil ? "http" : "https"
        guard URL(string: "\(scheme)://\(authority)") != nil else { throw StartError.invalidHost(host) }
        let (ports, listening) = AsyncThrowingStream.makeStream(of: Int.self)
        var application = Application(
            router: makeRouter(configure: configure),
            server: try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in listening.yield(channel.localAddress?.port ?? port) }
        )
        // Quiet unless LOG_LEVEL asks otherwise: stopping by cancellation (when a graceful stop takes too long) makes
        // Hummingbird log a CancellationError at error level ("Waiting on child channel"), which would clutter runs.
        if ProcessInfo.processInfo.environment["LOG_LEVEL"] == nil {
            application.logger.logLevel = .critical
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [application], logger: application.logger))
        let task = Task {
            do {
                try await group.run()
                listening.finish()
            } catch {
                listening.finish(throwing: error)
            }
        }
        return try await withTaskCancellationHandler {
            do {
                for try await boundPort in ports {
                    if let baseURL = URL(string: "\(scheme)://\(authority):\(boundPort)") {
                        return RunningServer(baseURL: baseURL, task: task, group: group)
                    }
                    break
                }
                task.cancel()
                await task.value
                throw Task.isCancelled ? CancellationError() : StartError.stoppedBeforeListening
            } catch {
                task.cancel()
                await task.value
                throw error
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Builds the service's router: the JSON error middleware, then the routes, then whatever `configure` adds.
    ///
    /// Routes that `configure` adds get the same JSON error bodies: a thrown `HTTPError(.conflict, message: "…")`
    /// answers `{"error":"http_409","reason":"…"}`. Each call makes a new store, seeded with three episodes.
    ///
    /// - Parameter configure: Adds extra routes, such as `router.addFaultRoutes()`. Defaults to none.
    /// - Returns: A router ready for a Hummingbird `Application`.
    public static func makeRouter(
        configure: @Sendable (Router<BasicRequestContext>) -> Void = { _ in }
    ) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        // Hummingbird applies a middleware only to routes added after it: add it first.
        router.add(middleware: JSONErrorMiddleware())
        router.addEpisodeRoutes(store: EpisodeStore())
        router.addAccountRoutes()
        router.addEchoRoutes()
        router.addStreamRoutes()
        configure(router)
        return router
    }
}
