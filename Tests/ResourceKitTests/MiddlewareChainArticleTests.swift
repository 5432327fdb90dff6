import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// MiddlewareChain.md's numbered path against the layers ``Pipeline`` assembles: the test fails when either changes
/// without the other.
///
/// Each step of the article's list under "The pipeline" names its layer in parentheses, as a code span at the start of
/// the parenthesis: `` (`Caching`) `` or `` (`Caching`; <doc:…>) ``, and the step of the web service's own middleware
/// `` (`middleware`; …) ``.
@Suite struct MiddlewareChainArticleTests {
    /// A middleware of the web service's own, which the list calls `middleware`.
    private struct Mine: Middleware {
        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            try await next(request, context)
        }
    }

    /// The article, read from the source tree.
    static let article = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ResourceKit/ResourceKit.docc/MiddlewareChain.md")

    /// The layer each step of the numbered list in `text`'s section "The pipeline" names, in order: the first code
    /// span that opens a parenthesis, the last part of a symbol's path.
    static func layerNames(inArticle text: String) -> [String] {
        var steps: [String] = []
        var inSection = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                inSection = line == "### The pipeline"
            } else if inSection, let first = line.first, first.isNumber, line.contains(". ") {
                steps.append(String(line))
            } else if inSection, line.hasPrefix(" "), !steps.isEmpty {
                steps[steps.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return steps.compactMap { step in
            guard let open = step.range(of: "(`") else { return nil }
            let name = step[open.upperBound...].drop { $0 == "`" }.prefix { $0 != "`" }
            let after = step[open.upperBound...].drop { $0 == "`" }.dropFirst(name.count).drop { $0 == "`" }
            guard let close = after.first, close == ")" || close == ";" else { return nil }
            return String(name.split(separator: "/").last ?? name)
        }
    }

    /// The layers a load passes in the code, in order, for a web service with every part: the timeout that runs the
    /// pipeline, its layers, the resource's receiver, which `Pipeline` puts innermost, and the transport's end.
    static func layerNamesInCode() -> [String] {
        let layers = Webservice(
            transport: StubTransport.answering(.status(200)), maxConcurrentLoads: 1,
            cache: ResponseCache(byteLimit: 1_000), middleware: [Mine()]
        ).layers
        return [String(describing: Timeout.self)]
            + layers.map { $0 is Mine ? "middleware" : String(describing: type(of: $0)) }
            + [String(describing: Observing.self)]
            + ["receiver", String(describing: Sending.self)]
    }

    @Test func theArticleListsTheLayersInTheOrderOfTheCode() throws {
        let listed = Self.layerNames(inArticle: try String(contentsOf: Self.article, encoding: .utf8))
        #expect(listed == Self.layerNamesInCode())
    }

    @Test func theParserFindsEveryKindOfStep() {
        let text = """
            ### The pipeline

            1. ``Webservice/load(_:)->A`` makes the request (not a layer).
            2. It starts (`Timeout`): a
               bound.
            3. Yours (`middleware`; the web service's).
            4. The cache (`Caching`; <doc:Caching>), then `GET` (`HEAD` in parentheses, `GET`) isn't one.

            ### Next
            5. Not in the list (`Other`).
            """
        #expect(Self.layerNames(inArticle: text) == ["Timeout", "middleware", "Caching"])
    }
}
