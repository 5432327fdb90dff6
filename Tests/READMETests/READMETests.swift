import Foundation
import SnippetExtraction
import Testing

/// Keeps the README's code honest: every ```` ```swift ```` block is compiled into this test target, via the
/// generated `READMESnippets.swift`, and its `@Test` functions run.
///
/// After editing the README, regenerate with `swift run update-snippets`.
@Suite struct READMETests {
    @Test func compiledSnippetsMatchTheREADME() throws {
        let compiled = try String(contentsOf: Snippets.readme.generated, encoding: .utf8)
        #expect(
            compiled == (try Snippets.expectedSource(of: Snippets.readme)),
            "README.md and READMESnippets.swift differ: run swift run update-snippets"
        )
    }
}

/// The generator's rules, on small documents.
@Suite struct SnippetExtractionTests {
    private static func source(_ markdown: String) -> String {
        Snippets.source(of: markdown, named: "README", path: "README.md")
    }

    @Test func everySwiftBlockIsExtractedAndManifestBlocksAreNot() throws {
        let readme = try String(contentsOf: Snippets.readme.markdown, encoding: .utf8)
        let fences = readme.components(separatedBy: "\n").filter { $0.hasPrefix("```swift") }
        let blocks = Snippets.blocks(in: readme)
        #expect(blocks.count == fences.count)
        #expect(blocks.count >= 3)
        #expect(!Self.source(readme).contains(".package(url:"))
    }

    @Test func blocksWithTopLevelAwaitAreWrappedAndDeclarationsAreNot() {
        let source = Self.source("```swift\nstruct A {}\n```\n\n```swift\nlet a = try await load()\n```\n")
        #expect(source.contains("\nprivate struct A {}\n"))
        #expect(
            source.contains(
                "@MainActor private func readmeSnippet2() async throws {\n    let a = try await load()\n    _ = (a)\n}")
        )
    }

    @Test func namesThatMerelyContainTryOrAwaitAreNotStatements() {
        let source = Self.source(
            "```swift\nstruct A {}\nlet newestEntry = entry\nlet awaitedTry = \"try\" // await\n```\n")
        #expect(source.contains("\nprivate let newestEntry = entry\n"))
        #expect(!source.contains("func readmeSnippet1"))
    }

    @Test func aBlockOfConstantsAloneIsWrappedSoThatTwoBlocksCanDeclareOneName() {
        let source = Self.source("```swift\nlet a = 1\n```\n\n```swift\nlet a = 2\n```\n")
        #expect(source.contains("func readmeSnippet1() async throws {\n    let a = 1\n"))
        #expect(source.contains("func readmeSnippet2() async throws {\n    let a = 2\n"))
    }

    @Test func aBlocksDeclarationsStayAtFileScopeAndItsStatementsAreWrapped() {
        let source = Self.source("```swift\nstruct A {\n    var b = 1\n}\n\nvar a = A()\na.b = 2\n```\n")
        #expect(source.contains("\nprivate struct A {\n    var b = 1\n}\n"))
        #expect(source.contains("func readmeSnippet1() async throws {\n    var a = A()\n    a.b = 2\n    _ = (a)\n}"))
    }

    @Test func aTraitsBlockCompilesUnderItsTraitAndAnUnknownWordFailsTheBuild() {
        #expect(Self.source("```swift Logging\nimport Logging\n```\n").contains("#if Logging\nimport Logging\n#endif"))
        #expect(Self.source("```swift Loging\nlet a = 1\n```\n").contains("#error(\"README.md:1: unknown fence info"))
    }

    @Test func anIndentedBlockInAListIsExtractedWithoutItsIndentation() {
        let blocks = Snippets.blocks(in: "- Item:\n\n  ```swift\n  struct A {\n      var b = 1\n  }\n  ```\n")
        #expect(blocks.map(\.lines) == [["struct A {", "    var b = 1", "}"]])
        #expect(blocks.map(\.line) == [3])
    }
}
