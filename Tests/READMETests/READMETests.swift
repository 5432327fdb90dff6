import Foundation
import Testing

/// Keeps the README's code honest: every ```` ```swift ```` block is compiled into this test target, via the
/// generated `READMESnippets.swift`, and its `@Test` functions run.
///
/// After editing the README, regenerate with `UPDATE_README_SNIPPETS=1 swift test --filter READMETests`.
@Suite struct READMETests {
    private static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    private static let readme = directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")
    private static let snippets = directory.appendingPathComponent("READMESnippets.swift")

    @Test func compiledSnippetsMatchTheREADME() throws {
        let expected = try Self.source(fromREADME: String(contentsOf: Self.readme, encoding: .utf8))
        if ProcessInfo.processInfo.environment["UPDATE_README_SNIPPETS"] == "1" {
            try expected.write(to: Self.snippets, atomically: true, encoding: .utf8)
        }
        let compiled = try String(contentsOf: Self.snippets, encoding: .utf8)
        #expect(
            compiled == expected,
            "README.md and READMESnippets.swift differ: run UPDATE_README_SNIPPETS=1 swift test --filter READMETests"
        )
    }

    @Test func everySwiftBlockIsExtractedAndManifestBlocksAreNot() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let fences = readme.components(separatedBy: "\n").filter { $0 == "```swift" }
        let blocks = Self.swiftBlocks(in: readme)
        #expect(blocks.count == fences.count)
        #expect(blocks.count >= 3)
        #expect(!blocks.contains { $0.contains(".package(url:") })
    }

    @Test func blocksWithTopLevelAwaitAreWrappedAndDeclarationsAreNot() {
        let source = Self.source(
            fromREADME: "```swift\nstruct A {}\n```\n\n```swift\nlet a = try await load()\n```\n"
        )
        #expect(source.contains("\nstruct A {}\n"))
        #expect(source.contains("func readmeSnippet2() async throws {\n    let a = try await load()\n}"))
    }

    @Test func namesThatMerelyContainTryOrAwaitAreNotStatements() {
        let source = Self.source(fromREADME: "```swift\nlet newestEntry = entry\nlet awaitedTry = 1\n```\n")
        #expect(source.contains("\nlet newestEntry = entry\n"))
        #expect(!source.contains("func readmeSnippet1"))
    }

    /// The contents of the README's ```` ```swift ```` blocks (not ```` ```swift manifest ````), in order.
    static func swiftBlocks(in readme: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in readme.components(separatedBy: "\n") {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The Swift file that compiles every README block: blocks with top-level `try` or `await` become the bodies of
    /// `async throws` functions; the others (declarations, tests) stay at file scope.
    static func source(fromREADME readme: String) -> String {
        var source = """
            // Generated from README.md by READMETests; do not edit.
            // swift-format-ignore-file

            import Foundation
            import ResourceKit

            #if canImport(FoundationNetworking)
                import FoundationNetworking
            #endif

            """
        for (index, block) in swiftBlocks(in: readme).enumerated() {
            let lines = block.components(separatedBy: "\n")
            let statements = lines.contains { line in
                let words = line.split { !($0.isLetter || $0.isNumber || $0 == "_") }
                return !line.hasPrefix(" ") && (words.contains("try") || words.contains("await"))
            }
            source += "\n// README block \(index + 1)\n"
            if statements {
                source += "func readmeSnippet\(index + 1)() async throws {\n"
                source += lines.map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
                source += "\n}\n"
            } else {
                source += block + "\n"
            }
        }
        return source
    }
}
