// swift-tools-version: 6.2
import PackageDescription

// ResourceKit's benchmarks: a release executable that measures the library against raw URLSession and raw
// AsyncHTTPClient, side by side, against nginx on loopback. Run it with `Benchmarks/run.sh`. It is a separate
// package so the root package keeps zero dependencies.
let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // With the Metrics and Logging traits, which add their middleware and nothing to a load without them: the
        // `instructions` section measures what each costs a load.
        .package(name: "ResourceKit", path: "..", traits: ["AsyncHTTPClient", "OpenAPI", "Metrics", "Logging"]),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The `openapi` section: a generated client over ResourceKit against the same client over
        // swift-openapi-async-http-client. Its code is generated once and committed (Sources/resourcekit-bench/
        // Generated; see README.md), so that building the benchmarks doesn't build the generator too.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "resourcekit-bench",
            dependencies: [
                .product(name: "ResourceKit", package: "ResourceKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                "EventSource",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ResourceKitOpenAPI", package: "ResourceKit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // openapi.yaml describes `GET /small.json` as the fixtures have it; Generated/ holds the client
            // swift-openapi-generator made of it with openapi-generator-config.yaml.
            exclude: ["openapi.yaml", "openapi-generator-config.yaml"],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // The parser of mattt/EventSource 1.1.1, the baseline of the server-sent events rows: its release doesn't
        // build on Linux (it calls `URLSession.bytes`, which FoundationNetworking lacks), so the benchmarks carry its
        // parser, with the connection left out, as published (so outside the formatted sources); see
        // Vendor/EventSource/EventSource.swift.
        .target(
            name: "EventSource", path: "Vendor/EventSource", exclude: ["LICENSE"],
            swiftSettings: [.treatAllWarnings(as: .error)]),
    ],
    swiftLanguageModes: [.v6]
)
