import CoreMetrics
import EpisodesService
import Foundation
import MetricsTestKit
import OTelSemanticConventions
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitMetrics
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `LoadMetrics`: OpenTelemetry's HTTP client metrics for each request the transport gets, and each load's duration and
/// outcome, with bounded attributes and no credential, with each transport.
@Suite(.timeLimit(.minutes(1))) struct MetricsTests {
    /// The metrics of OpenTelemetry's HTTP client semantic conventions (v1.26 on, stable since v1.23 for the duration):
    /// name, swift-metrics instrument, and the attributes a measurement must have.
    /// https://opentelemetry.io/docs/specs/semconv/http/http-metrics/#http-client
    private static let conventions: [(name: String, instrument: String)] = [
        ("http.client.request.duration", "histogram"),  // unit s
        ("http.client.active_requests", "updowncounter"),  // unit {request}
        ("http.client.request.body.size", "histogram"),  // unit By
        ("http.client.response.body.size", "histogram"),  // unit By
    ]

    /// The attributes the conventions allow on these metrics, by the generated registry's names.
    private static let allowedAttributes: Set<String> = [
        OTelAttribute.http.request.method, OTelAttribute.http.response.statusCode, OTelAttribute.server.address,
        OTelAttribute.server.port, OTelAttribute.error.type, OTelAttribute.url.scheme,
    ]

    @Test(arguments: TransportKind.allCases)
    func eachAttemptIsMeasuredWithTheConventionsNamesAndAttributes(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let metrics = TestMetrics()
            let webservice = kind.webservice(middleware: [LoadMetrics(factory: metrics), RetryPolicy(baseDelay: 0.01)])
            let url = base / "production/unavailable/metrics-\(kind)?failures=1"
            _ = try await webservice.load(Resource<Data>(url: url))

            let server = [
                ("http.request.method", "GET"), ("server.address", try #require(base.host)),
                ("server.port", String(try #require(base.port))), ("url.scheme", "http"),
            ]
            let durations = metrics.timers(label: "http.client.request.duration")
            #expect(durations.count == 2, "one per attempt: \(durations.map(\.dimensions))")
            let failed = try metrics.expectTimer(
                "http.client.request.duration",
                server + [("http.response.status_code", "503"), ("error.type", "503")])
            let succeeded = try metrics.expectTimer(
                "http.client.request.duration", server + [("http.response.status_code", "200")])
            #expect(failed.values.count == 1 && succeeded.values.count == 1)
            #expect(succeeded.values.allSatisfy { $0 > 0 && $0 < 10_000_000_000 }, "nanoseconds of one request")

            let active = try metrics.expectMeter("http.client.active_requests", server)
            #expect(active.values == [1, 0, 1, 0], "up as each attempt is sent, down as it is answered")
            let responseSizes = metrics.recorders(label: "http.client.response.body.size")
            #expect(responseSizes.flatMap(\.values).contains(Double(#"{"attempt":2}"#.utf8.count)))

            let load = try metrics.expectTimer(
                "resourcekit.load.duration", server + [("resourcekit.load.outcome", "retried")])
            #expect(load.values.count == 1)
            #expect(try #require(load.values.first) >= (try #require(succeeded.values.first)))

            // Names and attributes against the conventions; no path, query or key in any value.
            for (name, instrument) in Self.conventions where name != "http.client.request.body.size" {
                let found: [[(String, String)]] =
                    switch instrument {
                    case "histogram" where name.hasSuffix("duration"): metrics.timers(label: name).map(\.dimensions)
                    case "histogram": metrics.recorders(label: name).map(\.dimensions)
                    default: metrics.meters(label: name).map(\.dimensions)
                    }
                #expect(!found.isEmpty, "\(name) is recorded as a \(instrument)")
                for dimensions in found {
                    let keys = Set(dimensions.map(\.0))
                    #expect(keys.isSubset(of: Self.allowedAttributes), "\(name): \(keys)")
                    #expect(keys.isSuperset(of: ["http.request.method", "server.address", "server.port"]))
                    #expect(dimensions.allSatisfy { !$0.1.contains("production") && !$0.1.contains("failures") })
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func requestAndResponseBodySizesAreTheBytesSent(kind: TransportKind) async throws {
        try await withServer { base in
            let metrics = TestMetrics()
            let body = Data(#"{"title": "Measured"}"#.utf8)
            let webservice = kind.webservice(middleware: [LoadMetrics(factory: metrics)])
            let echo = try await webservice.load(Resource<Data>(url: base / "faults/body", method: .post(body)))
            let sent = try #require(metrics.recorders(label: "http.client.request.body.size").first)
            #expect(sent.values == [Double(body.count)])
            #expect(sent.dimensions.contains { $0 == ("http.request.method", "POST") })
            let received = try #require(metrics.recorders(label: "http.client.response.body.size").first)
            #expect(received.values == [Double(echo.count)])
        }
    }

    /// A middleware after `LoadMetrics` that sends the request with another method to another host: each request is
    /// measured as the transport got it, the load as it started.
    @Test(arguments: TransportKind.allCases)
    func eachRequestIsMeasuredAsTheTransportGotIt(kind: TransportKind) async throws {
        try await withServer { base in
            let metrics = TestMetrics()
            let webservice = kind.webservice(middleware: [LoadMetrics(factory: metrics), Rewriting()])
            let port = String(try #require(base.port))
            let echo = try await webservice.load(Resource<Data>(url: base / "faults/body"))
            #expect(String(decoding: echo, as: UTF8.self).contains("POST"), "the rewritten request was sent")

            let request = try #require(metrics.timers(label: "http.client.request.duration").first)
            #expect(
                request.dimensions.sorted { $0.0 < $1.0 }.elementsEqual(
                    [
                        ("http.request.method", "POST"), ("http.response.status_code", "200"),
                        ("server.address", "localhost"), ("server.port", port), ("url.scheme", "http"),
                    ], by: ==), "\(request.dimensions)")
            let active = try #require(metrics.meters(label: "http.client.active_requests").first)
            #expect(active.dimensions.contains { $0 == ("server.address", "localhost") })
            #expect(active.values == [1, 0])
            let sent = try #require(metrics.recorders(label: "http.client.request.body.size").first)
            #expect(sent.values == [Double(Rewriting.body.count)])
            let load = try #require(metrics.timers(label: "resourcekit.load.duration").first)
            let host = try #require(base.host)
            #expect(load.dimensions.contains { $0 == ("http.request.method", "GET") })
            #expect(load.dimensions.contains { $0 == ("server.address", host) })
        }
    }

    /// Sends each request as a `POST` with a small body to `localhost` instead of the request's host.
    struct Rewriting: Middleware {
        static let body = Data(#"{"rewritten": true}"#.utf8)
        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            var sent = request
            var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
            components.host = "localhost"
            sent.url = components.url!
            sent.method = "POST"
            sent.body = RequestBody(Self.body)
            return try await next(sent, context)
        }
    }

    /// A file upload's body is measured by its file's size (its `httpBody` is empty).
    @Test(arguments: TransportKind.allCases)
    func aFileUploadsBodySizeIsTheFiles(kind: TransportKind) async throws {
        try await withFileServer { base, directory in
            let metrics = TestMetrics()
            let file = directory.appendingPathComponent("upload.bin")
            try Data(count: 123_456).write(to: file)
            let upload = try Resource<UploadReceipt>(url: base / "transfers/upload", method: .put(.file(file)))
            let receipt = try await kind.webservice(middleware: [LoadMetrics(factory: metrics)]).load(upload)
            #expect(receipt.bytes == 123_456)
            let sent = try #require(metrics.recorders(label: "http.client.request.body.size").first)
            #expect(sent.values == [123_456])
            #expect(sent.dimensions.contains { $0 == ("http.request.method", "PUT") })
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anAnswerFromTheCacheIsALoadWhoseRequestIsTheRevalidation(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let metrics = TestMetrics()
            let webservice = kind.webservice(
                cache: ResponseCache(byteLimit: 1_000_000), middleware: [LoadMetrics(factory: metrics)])
            let resource = Resource<Data>(url: base / "production/etag/metrics-\(kind)")
            _ = try await webservice.load(resource)
            _ = try await webservice.load(resource)
            let outcomes = metrics.timers(label: "resourcekit.load.duration").compactMap { timer in
                timer.dimensions.first { $0.0 == "resourcekit.load.outcome" }?.1
            }
            #expect(Set(outcomes) == ["network", "cache_hit"])
            let statuses = metrics.timers(label: "http.client.request.duration").compactMap { timer in
                timer.dimensions.first { $0.0 == "http.response.status_code" }?.1
            }
            #expect(Set(statuses) == ["200", "304"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFailedLoadIsMeasuredWithItsErrorTypeAndNoCredential(kind: TransportKind) async throws {
        let metrics = TestMetrics()
        let secret = "s3cr3t-in-metrics"
        // Nothing listens on port 1: the connection is refused.
        let url = try #require(URL(string: "http://user:\(secret)@127.0.0.1:1/private/\(secret)?api_key=\(secret)"))
        let webservice = kind.webservice(middleware: [LoadMetrics(factory: metrics)])
        await #expect(throws: WebserviceError.self) {
            try await webservice.load(Resource<Data>(url: url, headers: ["Authorization": "Bearer \(secret)"]))
        }
        let request = try #require(metrics.timers(label: "http.client.request.duration").first)
        #expect(request.dimensions.contains { $0 == ("error.type", "URLError") })
        #expect(!request.dimensions.contains { $0.0 == "http.response.status_code" })
        let load = try #require(metrics.timers(label: "resourcekit.load.duration").first)
        #expect(load.dimensions.contains { $0 == ("resourcekit.load.outcome", "failed") })
        let active = try #require(metrics.meters(label: "http.client.active_requests").first)
        #expect(active.lastValue == 0)
        let everything =
            metrics.timers.flatMap(\.dimensions) + metrics.meters.flatMap(\.dimensions)
            + metrics.recorders.flatMap(\.dimensions)
        #expect(everything.allSatisfy { !$0.1.contains(secret) && !$0.1.contains("private") })
    }

    @Test(arguments: TransportKind.allCases)
    func aCancelledRequestLeavesNoActiveRequestBehind(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let metrics = TestMetrics()
            let webservice = kind.webservice(middleware: [LoadMetrics(factory: metrics)])
            var slow = Resource<Data>(url: base / "production/slow/metrics-\(kind)")
            slow.queryItems = [URLQueryItem(name: "milliseconds", value: "5000")]
            slow.timeout = 0.3
            await #expect(throws: (any Error).self) { try await webservice.load(slow) }
            // The load doesn't wait for its cancelled request to return: it is measured when it has.
            let active = try #require(metrics.meters(label: "http.client.active_requests").first)
            try await waitUntil { active.lastValue == 0 }
            let request = try #require(metrics.timers(label: "http.client.request.duration").first)
            #expect(request.dimensions.contains { $0 == ("error.type", "timeout") })
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aLoadAnsweredFrom400OnIsAFailureWithItsStatus(kind: TransportKind) async throws {
        try await withServer { base in
            let metrics = TestMetrics()
            let webservice = kind.webservice(middleware: [LoadMetrics(factory: metrics)])
            await #expect(throws: WebserviceError.self) {
                try await webservice.load(Resource<Data>(url: base / "faults/status/404"))
            }
            let load = try #require(metrics.timers(label: "resourcekit.load.duration").first)
            #expect(load.dimensions.contains { $0 == ("resourcekit.load.outcome", "failed") })
            #expect(load.dimensions.contains { $0 == ("error.type", "404") })
        }
    }

    /// The attributes are kept by origin and method: a load to another scheme, host or port gets its own, a user's
    /// name and password never tell two apart, and no path, query or credential is in any.
    @Test func attributesAreTheOriginsAndNeverCarryAUserOrAPath() {
        let origins = MeasuredOrigins()
        func common(_ method: String, _ url: String) -> [String] {
            origins.attributes(method: method, url: URL(string: url)).common.map { "\($0)=\($1)" }
        }
        let plain = common("GET", "http://api.example.com:8080/episodes?page=2")
        #expect(
            plain == [
                "http.request.method=GET", "server.address=api.example.com", "server.port=8080", "url.scheme=http",
            ])
        #expect(common("GET", "http://alice:s3cret@api.example.com:8080/private") == plain)
        #expect(common("GET", "http://api.example.com:8080") == plain)
        #expect(common("GET", "https://api.example.com:8080/episodes")[3] == "url.scheme=https")
        #expect(common("GET", "http://api.example.com:8081/episodes")[2] == "server.port=8081")
        #expect(common("GET", "http://api.example.com/episodes")[2] == "server.port=80")
        #expect(common("GET", "http://api.example.co/episodes")[1] == "server.address=api.example.co")
        #expect(common("BREW", "http://api.example.com:8080/episodes")[0] == "http.request.method=_OTHER")
        #expect(
            common("POST", "HTTPS://API.example.com/")[1...] == [
                "server.address=api.example.com", "server.port=443", "url.scheme=https",
            ])
        #expect(common("GET", "http://[::1]:9/x")[1...2] == ["server.address=::1", "server.port=9"])
    }
}
