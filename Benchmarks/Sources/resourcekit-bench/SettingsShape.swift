import AsyncHTTPClient
import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The sweep that chose the connection limits of ResourceKit's own clients: small GETs with 64 in flight through the
/// library with each candidate limit, against the raw client's default, interleaved as everywhere else.
///
/// Opt-in (`--only settings`): it takes a few minutes and only matters when the defaults are reconsidered. The chosen
/// settings and the figures that chose them are in Benchmarks/README.md.
enum SettingsShape {
    /// `URLSessionConfiguration`s to try: `.default`, then without `URLCache` and cookies, with each connection limit.
    static let urlSessionCandidates: [(name: String, cacheAndCookies: Bool, limit: Int)] = [
        (".default (URLCache, cookies), 6 connections", true, 6),
        ("no URLCache or cookies, 4 connections", false, 4),
        ("no URLCache or cookies, 6 connections", false, 6),
        ("no URLCache or cookies, 12 connections", false, 12),
    ]
    static let asyncHTTPClientLimits = [8, 16, 32, 64]

    static func run(options: Options, report: Report) async throws {
        report.heading("Connection settings: small GETs, \(options.inFlightWidth) in flight, library vs raw default")
        let resources = LibraryResources(options: options)
        let urlSessionRaw = URLSessionClients.pair(options: options).raw
        var rows: [[String]] = []
        for candidate in urlSessionCandidates {
            let configuration = URLSessionConfiguration.default
            if !candidate.cacheAndCookies {
                configuration.urlCache = nil
                configuration.httpCookieStorage = nil
                configuration.httpCookieAcceptPolicy = .never
                configuration.httpShouldSetCookies = false
            }
            configuration.httpMaximumConnectionsPerHost = candidate.limit
            let webservice = Webservice(transport: URLSessionTransport(configuration: configuration))
            rows.append(
                try await row(
                    "URLSessionTransport, \(candidate.name)", requests: options.concurrentRequests, options: options,
                    library: { _ = try await resources.load(.small, with: webservice) },
                    raw: { _ = try await urlSessionRaw(.small) }))
        }
        let asyncHTTPClientRaw = AsyncHTTPClientClients.defaultsPair(options: options).raw
        for limit in asyncHTTPClientLimits {
            // As ResourceKit's client, but for the limit.
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.redirectConfiguration = .disallow
            configuration.timeout = .init(connect: .seconds(60), read: .seconds(60))
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.decompression = .enabled(limit: .ratio(100))
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = limit
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            let webservice = Webservice(transport: AsyncHTTPClientTransport(client: client))
            do {
                rows.append(
                    try await row(
                        "AsyncHTTPClientTransport, concurrentHTTP1ConnectionsPerHostSoftLimit = \(limit)",
                        requests: options.fastConcurrentRequests, options: options,
                        library: { _ = try await resources.load(.small, with: webservice) },
                        raw: { _ = try await asyncHTTPClientRaw(.small) }))
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
        Table.print(header: ["library setting", "library", "raw default", "library ÷ raw"], rows: rows)
        print("   raw defaults: URLSession.shared (httpMaximumConnectionsPerHost 6), HTTPClient.shared (soft limit 8)")
    }

    private static func row(
        _ name: String,
        requests total: Int,
        options: Options,
        library: @escaping @Sendable () async throws -> Void,
        raw: @escaping @Sendable () async throws -> Void
    ) async throws -> [String] {
        let width = options.inFlightWidth
        let times = try await Interleaved.batches(
            rounds: options.rounds,
            library: { try await inFlight(total, width: width, library) },
            raw: { try await inFlight(total, width: width, raw) })
        let library = Samples(values: times.library.map { Double(total) / $0 }).median
        let raw = Samples(values: times.raw.map { Double(total) / $0 }).median
        return [
            name, Format.number(library, decimals: 0) + " req/s", Format.number(raw, decimals: 0) + " req/s",
            Format.number(library / raw, decimals: 3),
        ]
    }
}
