import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

@Suite struct CodingPathTests {
    @Test(
        arguments: [
            ([.key("feed"), .key("entry")], ".feed.entry"),
            ([.key("items"), .index(0), .key("name")], ".items[0].name"),
            ([.key("com.example.id")], #"["com.example.id"]"#),
            ([.key("0"), .index(0)], #"["0"][0]"#),
            ([.key("say \"hi\"")], #"["say \"hi\""]"#),
            ([.key("snake_case"), .key("kebab-case"), .key("_private")], ".snake_case.kebab-case._private"),
            ([], "."),
        ] as [([CodingPath.Component], String)])
    func errorMessagesWriteAPathLikeJq(path: [CodingPath.Component], description: String) {
        #expect(CodingPath.describe(path) == description)
    }
}
