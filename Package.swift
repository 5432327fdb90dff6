// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

// What the articles' snippets of a trait import (swift-log, swift-metrics, …), with the trait on.
let snippetTraitProducts: [Target.Dependency] = [
    .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
    .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
    .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
    .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["HTTPTypes"])),
    .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
]

let package = Package(
    name: "ResourceKit",
    // The versions with the Synchronization module's `Mutex`, which the default transport's body path needs.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ResourceKit", targets: ["ResourceKit"]),
        // For your test targets: stub, record and replay transports. No dependencies either.
        .library(name: "ResourceKitTesting", targets: ["ResourceKitTesting"]),
        // With the `OpenAPI` trait: a swift-openapi-runtime `ClientTransport` that sends through a `Webservice`.
        .library(name: "ResourceKitOpenAPI", targets: ["ResourceKitOpenAPI"]),
    ],
    // No trait is on by default, and SwiftPM fetches nothing for a dependency that only a disabled trait uses: the
    // default build has zero dependencies (`swift package show-dependencies`).
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: "Adds AsyncHTTPClientTransport, which sends requests with AsyncHTTPClient (SwiftNIO)."
        ),
        .trait(
            name: "HTTPTypes",
            description:
                "Adds conversions between ResourceKit's requests and responses and swift-http-types' HTTPRequest, "
                + "HTTPResponse and HTTPFields."
        ),
        .trait(
            name: "OpenAPI",
            description: "Fills the ResourceKitOpenAPI product: a ClientTransport for swift-openapi-generator clients.",
            enabledTraits: ["HTTPTypes"]
        ),
        .trait(
            name: "Logging",
            description: "Adds LoadLogging, a middleware that logs each load and its requests with swift-log."
        ),
        .trait(
            name: "Metrics",
            description: "Adds LoadMetrics, a middleware that records OpenTelemetry's HTTP client metrics and each "
                + "load's duration and outcome with swift-metrics."
        ),
        .trait(
            name: "Tracing",
            description: "Adds DistributedTracing, a middleware that starts a client span per attempt "
                + "(swift-distributed-tracing)."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        // Small helpers (header syntax, safe files, hashes) that the core and the built-ins share: never re-exported.
        .target(name: "ResourceKitSupport", swiftSettings: strict),
        // What every load and every extension is written against: the contract. No trait.
        .target(name: "ResourceKitCore", dependencies: ["ResourceKitSupport"], swiftSettings: strict),
        // Every feature without a dependency, on the core's public API: formats, middleware, the cache, downloads,
        // streams, trust, URLSessionTransport and FileTransport.
        .target(
            name: "ResourceKitBuiltIns", dependencies: ["ResourceKitCore", "ResourceKitSupport"], swiftSettings: strict),
        // One target a trait, empty unless its trait is on.
        .target(
            name: "ResourceKitAsyncHTTPClient",
            dependencies: [
                "ResourceKitCore", "ResourceKitSupport", "ResourceKitBuiltIns",
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])
                ),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOFoundationCompat", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])
                ),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOHTTPCompression", package: "swift-nio-extras",
                    condition: .when(traits: ["AsyncHTTPClient"])
                ),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ResourceKitHTTPTypes",
            dependencies: [
                "ResourceKitCore",
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["HTTPTypes"])),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ResourceKitLogging",
            dependencies: [
                "ResourceKitCore", "ResourceKitSupport", "ResourceKitBuiltIns",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ResourceKitMetrics",
            dependencies: [
                "ResourceKitCore", "ResourceKitSupport", "ResourceKitBuiltIns",
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ResourceKitTracing",
            dependencies: [
                "ResourceKitCore", "ResourceKitSupport", "ResourceKitBuiltIns",
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
            ],
            swiftSettings: strict
        ),
        // `import ResourceKit`: the core, the built-ins and each enabled trait's target, re-exported.
        .target(
            name: "ResourceKit",
            dependencies: [
                "ResourceKitCore", "ResourceKitBuiltIns",
                .target(name: "ResourceKitAsyncHTTPClient", condition: .when(traits: ["AsyncHTTPClient"])),
                .target(name: "ResourceKitHTTPTypes", condition: .when(traits: ["HTTPTypes"])),
                .target(name: "ResourceKitLogging", condition: .when(traits: ["Logging"])),
                .target(name: "ResourceKitMetrics", condition: .when(traits: ["Metrics"])),
                .target(name: "ResourceKitTracing", condition: .when(traits: ["Tracing"])),
            ],
            swiftSettings: strict
        ),
        // Empty unless the `OpenAPI` trait is on.
        .target(
            name: "ResourceKitOpenAPI",
            dependencies: [
                "ResourceKit", "ResourceKitSupport",
                .product(
                    name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ResourceKitTesting",
            dependencies: ["ResourceKit", "ResourceKitSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ResourceKitTestingTests",
            dependencies: ["ResourceKitTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ResourceKitTests",
            dependencies: [
                "ResourceKit", "ResourceKitTesting", "ResourceKitCore", "ResourceKitBuiltIns", "ResourceKitSupport",
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        // The foundation issue's public contract, compiled line for line.
        .testTarget(
            name: "FoundationContractTests",
            dependencies: ["ResourceKit"],
            swiftSettings: strict
        ),
        // The code of the README and of the DocC articles, compiled: `SnippetExtraction` turns their ```swift blocks
        // into the `READMETests` and `ArticleSnippetsTests` files that `swift run update-snippets` writes; a test
        // fails when one is out of date. `ArticlePreludes` declares what the articles' blocks use and don't declare.
        .target(name: "SnippetExtraction", path: "Tests/SnippetExtraction", swiftSettings: strict),
        .executableTarget(
            name: "update-snippets", dependencies: ["SnippetExtraction"], path: "Tests/update-snippets",
            swiftSettings: strict),
        .testTarget(
            name: "READMETests",
            dependencies: ["ResourceKit", "SnippetExtraction"],
            swiftSettings: strict
        ),
        .target(
            name: "ArticlePreludes",
            dependencies: ["ResourceKit", "ResourceKitOpenAPI"] + snippetTraitProducts,
            path: "Tests/ArticlePreludes",
            swiftSettings: strict
        ),
        .testTarget(
            name: "ArticleSnippetsTests",
            dependencies: [
                "ResourceKit", "ResourceKitTesting", "ResourceKitOpenAPI", "ArticlePreludes", "SnippetExtraction",
            ] + snippetTraitProducts,
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
