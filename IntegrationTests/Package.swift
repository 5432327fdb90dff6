// swift-tools-version: 6.2
import PackageDescription

// The real-server side of ResourceKit: an Episodes web service built on Hummingbird, the Swift Talk client model
// that talks to it (ResourceKit only), a demo executable, and the integration suite. It is a separate package so the
// root package keeps zero dependencies.
let package = Package(
    name: "IntegrationTests",
    platforms: [.macOS(.v15)],
    dependencies: [
        // With its AsyncHTTPClient trait, so that the suite runs every test with each transport, side by side, and
        // its interop traits (OpenAPI, which brings HTTPTypes; Tracing, Metrics and Logging), whose tests live here.
        .package(
            name: "ResourceKit", path: "..", traits: ["AsyncHTTPClient", "OpenAPI", "Tracing", "Metrics", "Logging"]),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // The server's service group, which the tests shut down gracefully (Hummingbird brings it).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // The demo logs ResourceKit's loads through swift-log, which Hummingbird already brings; the suite checks the
        // lines with a handler of its own.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The metrics' test backend (MetricsTestKit) for the suite; the demo prints its metrics in Prometheus' format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // OpenTelemetry's attribute names, generated from the semantic conventions' registry: the suite checks the
        // metrics' and spans' attributes against them.
        .package(url: "https://github.com/swift-otel/swift-otel-semantic-conventions", from: "1.44.0"),
        // A multipart parser that is not ours, for the server to check ResourceKit's form bodies with.
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        // A server that answers raw bytes, for responses no HTTP server library would write.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The tracer API that ResourceKit's Tracing trait uses, for the W3C tracer of the demo and the suite.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // A client generated from the Episodes service's OpenAPI document, to run over ResourceKit's transport. The
        // generator (with OpenAPIKit, Yams and swift-argument-parser) runs at build time, for that one target.
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "EpisodesService",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .target(
            name: "SwiftTalk",
            dependencies: [.product(name: "ResourceKit", package: "ResourceKit")],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // A tracer that propagates W3C trace context and hands each span over as it ends: for the demo and the suite.
        .target(
            name: "W3CTracing",
            dependencies: [.product(name: "Tracing", package: "swift-distributed-tracing")],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // The Episodes service's OpenAPI document (openapi.yaml), and the types and client the generator's build
        // plugin makes of it, internal (see EpisodesOpenAPIClient.swift).
        .target(
            name: "EpisodesOpenAPIClient",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            swiftSettings: [.treatAllWarnings(as: .error)],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(
            name: "demo",
            dependencies: [
                "EpisodesService", "SwiftTalk", "W3CTracing", .product(name: "ResourceKit", package: "ResourceKit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "EpisodesService", "SwiftTalk", "W3CTracing", .product(name: "ResourceKit", package: "ResourceKit"),
                .product(name: "ResourceKitTesting", package: "ResourceKit"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                "EpisodesOpenAPIClient", .product(name: "ResourceKitOpenAPI", package: "ResourceKit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "OTelSemanticConventions", package: "swift-otel-semantic-conventions"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
