import EpisodesService
import Foundation
import Logging
import Metrics
import Prometheus
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The ResourceKit demo: talks to an Episodes server the way a Swift Talk app would, and checks every answer.

/// Prints a message to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("demo: \(message)\n".utf8))
}

/// Runs the demo and returns the exit code: 0 when every step behaved as expected.
func runDemo(arguments: [String]) async -> Int32 {
    let command: DemoCommand
    let transport: DemoTransport
    do {
        let others: [String]
        (transport, others) = try DemoTransport.take(from: arguments)
        command = try DemoCommand(arguments: others)
    } catch {
        printError("\(error.message). Run demo --help for usage.")
        return 1
    }

    let server: RunningServer?
    let baseURL: URL
    switch command {
    case .help:
        print(DemoCommand.usage)
        return 0
    case .embedded:
        do {
            let running = try await EpisodesServer.start(configure: {
                $0.addProductionRoutes()
                $0.addFaultRoutes()
                $0.addFileTransferRoutes()
            })
            (server, baseURL) = (running, running.baseURL)
        } catch {
            printError("could not start the embedded Episodes server: \(error)")
            return 1
        }
        print("ResourceKit demo — Episodes service at \(baseURL.absoluteString)")
    case .serve(let port):
        return await serve(port: port)
    case .remote(let url):
        (server, baseURL) = (nil, url)
        print("ResourceKit demo — Episodes API at \(baseURL.absoluteString)")
    }

    let makeWebservice = webservices(transport)
    var tour = Tour(
        baseURL: baseURL, webservice: makeWebservice(nil, nil, []), makeWebservice: makeWebservice,
        makeCookieWebservice: { baseURL, jar in
            switch transport {
            case .urlSession:
                return Webservice(
                    baseURL: baseURL, transport: URLSessionTransport(configuration: .ephemeral, cookies: jar))
            case .asyncHTTPClient:
                var cookieKeeping = AsyncHTTPClientTransport()
                cookieKeeping.cookies = jar
                return Webservice(baseURL: baseURL, transport: cookieKeeping)
            }
        })
    let reachable = await tour.run()
    if reachable, let server { await tour.workOffline(stoppingServer: server.stop) }
    await server?.stop()

    guard reachable else {
        printError("cannot reach \(baseURL.absoluteString): is an Episodes server running there?")
        return 1
    }
    let transcript = tour.transcript
    guard transcript.failures == 0 else {
        let steps = transcript.failures == 1 ? "1 step" : "\(transcript.failures) steps"
        print("Done: \(transcript.requests) requests, \(steps) not as expected.")
        return 1
    }
    printMetrics()
    print("Done: \(transcript.requests) requests, all as expected.")
    return 0
}

/// Where the demo's metrics go: `LoadMetrics()` records into the factory the process bootstrapped.
let metricsRegistry = PrometheusCollectorRegistry()

/// Prints the metrics the loads recorded, in Prometheus' text format, without the histograms' buckets: each
/// duration's count and sum, by method, server, status or error, and outcome.
func printMetrics() {
    print("Metrics (Prometheus text format, buckets left out):")
    let lines = metricsRegistry.emitToString().split(separator: "\n")
    for line in lines where !line.contains("_bucket{") && !line.hasPrefix("# HELP") { print("    \(line)") }
}

/// Runs the embedded server until the process is interrupted, for exploring the API with curl or a second demo.
func serve(port: Int) async -> Int32 {
    do {
        let server = try await EpisodesServer.start(
            port: port,
            configure: {
                $0.addProductionRoutes()
                $0.addFaultRoutes()
                $0.addFileTransferRoutes()
            })
        print("Episodes service at \(server.baseURL.absoluteString); press Ctrl-C to stop.")
        while true {
            try await Task.sleep(for: .seconds(3600))
        }
    } catch {
        printError("could not start the Episodes server: \(error)")
        return 1
    }
}

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
    return handler
}
MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metricsRegistry))
exit(await runDemo(arguments: Array(CommandLine.arguments.dropFirst())))

/// Makes the demo's web services, all on one transport.
///
/// The transport is ResourceKit's URLSession transport, with a shorter idle timeout than its 60 seconds so a silent
/// host fails fast, or `AsyncHTTPClientTransport` with its own. Each web service measures its loads (`LoadMetrics`,
/// into the factory bootstrapped above), logs them through swift-log (`LoadLogging`: `LOG_LEVEL=debug swift run …
/// demo` shows each request, `trace` its `curl` command) and retries what a later attempt can cure; a step passes the
/// cache and middleware it adds.
private func webservices(
    _ kind: DemoTransport
) -> @Sendable (_ baseURL: URL?, _ cache: ResponseCache?, _ middleware: [any Middleware]) -> Webservice {
    let logger = Logger(label: "resourcekit.demo")
    let transport: any Transport
    switch kind {
    case .urlSession:
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        transport = URLSessionTransport(configuration: configuration)
    case .asyncHTTPClient:
        print("(transport: AsyncHTTPClient)")
        transport = AsyncHTTPClientTransport()
    }
    return { baseURL, cache, middleware in
        Webservice(
            baseURL: baseURL, transport: transport, cache: cache,
            middleware: [LoadMetrics(), LoadLogging(logger: logger), RetryPolicy(baseDelay: 0.05)] + middleware)
    }
}
