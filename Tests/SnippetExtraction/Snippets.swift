import Foundation

/// The one generator of the compiled snippets: the ```` ```swift ```` blocks of the README and of every DocC
/// article become Swift files of a test target, which `swift build --build-tests` compiles and whose `@Test`s run.
///
/// `swift run update-snippets` writes them; `READMETests` and `ArticleSnippetsTests` fail when one is out of date.
/// CONTRIBUTING.md ("The README's and the articles' code") has the rules: fence info words, scope, preludes.
public enum Snippets {
    /// A document whose blocks are compiled, and the file they are compiled into.
    public struct Document: Sendable, Equatable {
        /// The Markdown file.
        public var markdown: URL
        /// The generated Swift file.
        public var generated: URL
        /// The modules the generated file imports besides Foundation and ResourceKit.
        public var imports: [String] = []
    }

    /// The traits a fence may name; their blocks compile under `#if` of the trait.
    public static let traits: Set<String> = [
        "AsyncHTTPClient", "HTTPTypes", "OpenAPI", "Logging", "Metrics", "Tracing",
    ]

    /// The package's root directory, found from this file's path.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Where the articles are.
    public static let articles = packageRoot.appendingPathComponent("Sources/ResourceKit/ResourceKit.docc")
    /// Where the articles' generated files are.
    public static let articleSnippets = packageRoot.appendingPathComponent("Tests/ArticleSnippetsTests/Generated")

    /// The README and its generated file.
    public static let readme = Document(
        markdown: packageRoot.appendingPathComponent("README.md"),
        generated: packageRoot.appendingPathComponent("Tests/READMETests/READMESnippets.swift"))

    /// Every article that has a ```` ```swift ```` block, with its generated file `<Article>Snippets.swift`.
    public static func articleDocuments() throws -> [Document] {
        let names = try FileManager.default.contentsOfDirectory(atPath: articles.path).filter { $0.hasSuffix(".md") }
        return try names.sorted().compactMap { name in
            let markdown = articles.appendingPathComponent(name)
            guard try !blocks(in: String(contentsOf: markdown, encoding: .utf8)).isEmpty else { return nil }
            let article = String(name.dropLast(".md".count))
            return Document(
                markdown: markdown, generated: articleSnippets.appendingPathComponent("\(article)Snippets.swift"),
                imports: ["ArticlePreludes", "Testing"])
        }
    }

    /// The generated files in the articles' directory that no article has.
    public static func orphans() throws -> [URL] {
        let expected = Set(try articleDocuments().map(\.generated.lastPathComponent))
        let present = (try? FileManager.default.contentsOfDirectory(atPath: articleSnippets.path)) ?? []
        return present.filter { !expected.contains($0) }.sorted().map { articleSnippets.appendingPathComponent($0) }
    }

    /// The text a document's generated file must hold.
    public static func expectedSource(of document: Document) throws -> String {
        let name = document.markdown.deletingPathExtension().lastPathComponent
        let path = String(document.markdown.path.dropFirst(packageRoot.path.count + 1))
        let markdown = try String(contentsOf: document.markdown, encoding: .utf8)
        return source(of: markdown, named: name, path: path, imports: document.imports)
    }

    /// Writes every generated file and removes the orphans: what `swift run update-snippets` does.
    public static func update() throws {
        try FileManager.default.createDirectory(at: articleSnippets, withIntermediateDirectories: true)
        for document in try [readme] + articleDocuments() {
            try expectedSource(of: document).write(to: document.generated, atomically: true, encoding: .utf8)
        }
        for orphan in try orphans() {
            try FileManager.default.removeItem(at: orphan)
        }
    }

    /// A fenced ```` ```swift ```` block: its lines, without the fence's indentation, and where it starts.
    public struct Block: Equatable, Sendable {
        /// The words after `swift` in the opening fence.
        public var info: [String]
        /// The block's lines.
        public var lines: [String]
        /// The line of the opening fence, from 1.
        public var line: Int
    }

    /// Every ```` ```swift ```` block, at any indentation (inside a list item too), in order.
    public static func blocks(in markdown: String) -> [Block] {
        var blocks: [Block] = []
        var open: (indent: Int, block: Block)?
        for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
            let indent = line.prefix { $0 == " " }.count
            let trimmed = line.dropFirst(indent)
            if let current = open {
                if trimmed == "```" {
                    blocks.append(current.block)
                    open = nil
                } else {
                    let strip = min(current.indent, line.prefix { $0 == " " }.count)
                    open?.block.lines.append(String(line.dropFirst(strip)))
                }
            } else if trimmed.hasPrefix("```swift") {
                let info = trimmed.dropFirst("```swift".count)
                guard info.isEmpty || info.first == " " || info.first == "," else { continue }
                let words = info.split { $0 == " " || $0 == "," }.map(String.init)
                open = (indent, Block(info: words, lines: [], line: index + 1))
            }
        }
        return blocks
    }

    /// The Swift file that compiles a document's blocks.
    public static func source(of markdown: String, named name: String, path: String, imports: [String] = []) -> String {
        var source = """
            // Generated from \(path) by `swift run update-snippets`; do not edit.
            // swift-format-ignore-file

            \((["Foundation", "ResourceKit"] + imports).map { "import \($0)" }.joined(separator: "\n"))

            #if canImport(FoundationNetworking)
                import FoundationNetworking
            #endif

            """
        let function =
            name.prefix { $0.isUppercase }.count == name.count
            ? name.lowercased() : name.prefix(1).lowercased() + name.dropFirst()
        let file = (path as NSString).lastPathComponent
        for (index, block) in blocks(in: markdown).enumerated() {
            source += "\n// \(file):\(block.line), block \(index + 1)\n"
            let unknown = block.info.filter { $0 != "manifest" && !traits.contains($0) }
            if !unknown.isEmpty {
                source += "#error(\"\(file):\(block.line): unknown fence info \(unknown); see Snippets.swift\")\n"
                continue
            }
            if block.info.contains("manifest") {
                source += "// Not compiled: a Package.swift fragment.\n"
                continue
            }
            let body = swift(of: block.lines, function: "\(function)Snippet\(index + 1)")
            let conditions = block.info.filter { traits.contains($0) }
            source += conditions.isEmpty ? body : "#if \(conditions.joined(separator: " && "))\n\(body)#endif\n"
        }
        return source
    }

    /// One block's Swift: its declarations at file scope, and its statements in a function.
    static func swift(of lines: [String], function: String) -> String {
        let items = self.items(of: lines)
        // Constants stay at file scope beside a type or an extension that may use them; alone, they are locals,
        // so that two blocks of a document can both declare `let webservice`.
        let hasStatements =
            items.contains { item in
                item.kind == .statement || (item.kind == .constant && mentionsTryOrAwait(item.lines))
            } || !items.contains { $0.kind == .declaration }
        var declarations: [String] = []
        var statements: [String] = []
        var names: [String] = []
        for item in items {
            if item.kind == .declaration || (item.kind == .constant && !hasStatements) {
                declarations += madePrivate(item.lines)
            } else {
                statements += item.lines
                if item.kind == .constant, let name = boundName(item.lines) { names.append(name) }
            }
        }
        var source = declarations.isEmpty ? "" : declarations.joined(separator: "\n") + "\n"
        if hasStatements {
            if !names.isEmpty {
                // Constants a snippet shows but doesn't use are read once, so that no warning says so.
                statements.append("_ = (\(names.joined(separator: ", ")))")
            }
            source += "@MainActor private func \(function)() async throws {\n"
            source += statements.map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n") + "\n}\n"
        }
        return source
    }

    enum Kind { case declaration, constant, statement }

    struct Item {
        var kind: Kind
        var lines: [String]
    }

    /// A block's top-level items: a line at column 0, outside brackets, starts one, with the comments before it.
    static func items(of lines: [String]) -> [Item] {
        var items: [Item] = []
        var comments: [String] = []
        var depth = 0
        for line in lines {
            if line.isEmpty, items.isEmpty, comments.isEmpty { continue }
            let continues =
                depth > 0 || line.first.map { " \t})].".contains($0) } ?? true
                || line.hasPrefix("else") || line.hasPrefix("catch")
                || items.last.map { $0.lines.allSatisfy { $0.hasPrefix("@") || $0.hasPrefix("//") } } == true
            depth += bracketBalance(line)
            if continues, !items.isEmpty {
                items[items.count - 1].lines += comments + [line]
                comments = []
            } else if line.hasPrefix("//") {
                comments.append(line)
            } else {
                items.append(Item(kind: kind(of: line), lines: comments + [line]))
                comments = []
            }
        }
        if !comments.isEmpty {
            if items.isEmpty { return [Item(kind: .declaration, lines: comments)] }
            items[items.count - 1].lines += comments
        }
        return items
    }

    static let declarationKeywords: Set<String> = [
        "struct", "class", "final", "enum", "actor", "protocol", "extension", "typealias", "func", "import", "private",
        "fileprivate", "internal", "public", "nonisolated", "indirect", "#if",
    ]

    static func kind(of line: String) -> Kind {
        let words = line.split(separator: " ").drop { $0.hasPrefix("@") }
        guard let first = words.first else { return line.hasPrefix("@") ? .declaration : .statement }
        if declarationKeywords.contains(String(first)) { return .declaration }
        if first == "let" || first == "var" { return .constant }
        return .statement
    }

    /// `private` after the attributes of a declaration at file scope, unless it has an access level, is an
    /// import or a conditional block, or is an extension that declares a conformance (which can't be private).
    static func madePrivate(_ lines: [String]) -> [String] {
        let attributesOnly = { (line: String) in line.split(separator: " ").allSatisfy { $0.hasPrefix("@") } }
        guard let index = lines.firstIndex(where: { !$0.hasPrefix("//") && !attributesOnly($0) }) else { return lines }
        var words = lines[index].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let start = words.firstIndex { !$0.hasPrefix("@") } ?? words.endIndex
        guard start < words.endIndex else { return lines }
        let keyword = words[start]
        let header = lines[index].prefix { $0 != "{" }
        if ["import", "#if", "private", "fileprivate", "internal", "public"].contains(keyword)
            || (keyword == "extension" && header.contains(":"))
        {
            return lines
        }
        words.insert("private", at: start)
        var result = lines
        result[index] = words.joined(separator: " ")
        return result
    }

    /// The name a `let` or `var` binds, unless it binds a pattern.
    static func boundName(_ lines: [String]) -> String? {
        guard let line = lines.first(where: { !$0.hasPrefix("//") }) else { return nil }
        let words = line.split(separator: " ")
        guard words.count > 1 else { return nil }
        let name = words[1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty || name.first!.isNumber ? nil : String(name)
    }

    /// Whether `try` or `await` is a word of the lines' code (not of their comments or strings).
    static func mentionsTryOrAwait(_ lines: [String]) -> Bool {
        lines.contains { line in
            let words = code(of: line).split { !($0.isLetter || $0.isNumber || $0 == "_") }
            return words.contains("try") || words.contains("await")
        }
    }

    /// How many brackets a line opens, less those it closes, outside strings and comments; `#if` and `#endif`
    /// count as brackets.
    static func bracketBalance(_ line: String) -> Int {
        if line.hasPrefix("#if") { return 1 }
        if line.hasPrefix("#endif") { return -1 }
        return code(of: line).reduce(0) { balance, character in
            switch character {
            case "(", "[", "{": balance + 1
            case ")", "]", "}": balance - 1
            default: balance
            }
        }
    }

    /// The line without its string literals and its comment (a string's interpolations are dropped with it).
    static func code(of line: String) -> String {
        var code = ""
        var characters = Array(line)[...]
        while let character = characters.popFirst() {
            if character == "/", characters.first == "/" { break }
            if character == "#" || character == "\"" {
                var hashes = character == "#" ? 1 : 0
                while characters.first == "#" {
                    hashes += 1
                    characters.removeFirst()
                }
                guard character == "\"" || characters.first == "\"" else {
                    code.append(character)
                    code += String(repeating: "#", count: max(0, hashes - 1))
                    continue
                }
                if character == "#" { characters.removeFirst() }
                let end = "\"" + String(repeating: "#", count: hashes)
                while !characters.isEmpty, !characters.starts(with: end) {
                    if characters.removeFirst() == "\\", hashes == 0, !characters.isEmpty { characters.removeFirst() }
                }
                characters = characters.dropFirst(end.count)
                code += "\"\""
                continue
            }
            code.append(character)
        }
        return code
    }
}
