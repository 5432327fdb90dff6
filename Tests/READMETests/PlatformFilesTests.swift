import Foundation
import Testing

/// `.spi.yml` and the Apple workflow name every platform `Package.swift` declares, so that a platform added to the
/// manifest is compiled somewhere.
@Suite struct PlatformFilesTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The platforms of the manifest's `platforms:` line, such as `["iOS", "macOS"]`.
    static func declaredPlatforms(inManifest manifest: String) -> [String] {
        guard let line = manifest.split(separator: "\n").first(where: { $0.contains("platforms: [") }) else {
            return []
        }
        return line.split(separator: ".").compactMap { part in
            let name = part.prefix { $0.isLetter }
            return name.isEmpty || name == "v" || !part.dropFirst(name.count).hasPrefix("(") ? nil : String(name)
        }
    }

    @Test func theManifestsPlatformsAreRead() throws {
        #expect(Self.declaredPlatforms(inManifest: "    platforms: [.macOS(.v15), .iOS(.v18)],") == ["macOS", "iOS"])
        #expect(try Self.declaredPlatforms(inManifest: Self.text("Package.swift")).count == 5)
    }

    @Test func theSwiftPackageIndexBuildsEveryPlatform() throws {
        let spi = try Self.text(".spi.yml").lowercased()
        for platform in try Self.declaredPlatforms(inManifest: Self.text("Package.swift")) {
            let key = platform == "macOS" ? "macos-xcodebuild" : platform.lowercased()
            #expect(spi.contains("- platform: \(key)\n"), "\(platform) is missing from .spi.yml")
        }
        #expect(spi.contains("- platform: linux\n"))
    }

    @Test func theAppleWorkflowBuildsEveryApplePlatform() throws {
        let workflow = try Self.text(".github/workflows/apple.yml")
        let devices = try Self.declaredPlatforms(inManifest: Self.text("Package.swift")).filter { $0 != "macOS" }
        #expect(workflow.contains("platform: [\(devices.joined(separator: ", "))]"))
        #expect(workflow.contains("runs-on: macos-"))
        #expect(workflow.contains("run: swift test"))
    }

    /// The README installs the newest version CHANGELOG.md names (a `## 0.2.0 — date` heading), which is tagged.
    @Test func theREADMEInstallsTheNewestVersionOfTheChangelog() throws {
        let changelog = try Self.text("CHANGELOG.md").split(separator: "\n")
        let newest = try #require(
            changelog.first { $0.hasPrefix("## ") && $0.dropFirst(3).first?.isNumber == true }?
                .dropFirst(3).prefix { !$0.isWhitespace })
        let readme = try Self.text("README.md")
        #expect(readme.contains(#"from: "\#(newest)""#))
        #expect(!readme.contains(#"branch: "main""#))
    }
}
