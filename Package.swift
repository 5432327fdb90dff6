// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ResourceKit",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "ResourceKit", targets: ["ResourceKit"])
    ],
    targets: [
        .target(
            name: "ResourceKit",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .testTarget(
            name: "ResourceKitTests",
            dependencies: ["ResourceKit"],
            resources: [.copy("Fixtures")],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .testTarget(
            name: "READMETests",
            dependencies: ["ResourceKit"],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
