import SnippetExtraction

// Writes the README's and every article's compiled snippets (see SnippetExtraction's `Snippets`).
try Snippets.update()
print(
    "Wrote \(Snippets.readme.generated.lastPathComponent) and \(try Snippets.articleDocuments().count) articles' snippets."
)
