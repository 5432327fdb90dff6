import Foundation
import SnippetExtraction
import Testing

/// Keeps the articles' code honest.
///
/// Every ```` ```swift ```` block of a DocC article is compiled into this target, in
/// `Generated/<Article>Snippets.swift`, and its `@Test` functions run. The names a block uses without declaring them
/// are in the `ArticlePreludes` target.
///
/// After editing an article, regenerate with `swift run update-snippets`.
@Suite struct ArticleSnippetsTests {
    @Test(arguments: try Snippets.articleDocuments().map(\.markdown.lastPathComponent))
    func compiledSnippetsMatchTheArticle(_ article: String) throws {
        let document = try #require(try Snippets.articleDocuments().first { $0.markdown.lastPathComponent == article })
        let compiled = try? String(contentsOf: document.generated, encoding: .utf8)
        #expect(
            compiled == (try Snippets.expectedSource(of: document)),
            "\(article) and \(document.generated.lastPathComponent) differ: run swift run update-snippets"
        )
    }

    @Test func everyGeneratedFileHasAnArticle() throws {
        #expect(try Snippets.orphans().isEmpty, "Remove them: run swift run update-snippets")
    }

    @Test func everySwiftFenceOfAnArticleIsExtractedListItemsIncluded() throws {
        let documents = try Snippets.articleDocuments()
        #expect(documents.count >= 18)
        for document in documents {
            let markdown = try String(contentsOf: document.markdown, encoding: .utf8)
            let fences = markdown.components(separatedBy: "\n").filter {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("```swift")
            }
            #expect(Snippets.blocks(in: markdown).count == fences.count, "\(document.markdown.lastPathComponent)")
        }
    }
}
