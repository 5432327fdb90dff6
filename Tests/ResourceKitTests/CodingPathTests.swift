import ResourceKit
import Testing

@Suite struct CodingPathTests {
    @Test func stringLiteralsAreKeysAndIntegerLiteralsAreIndices() {
        let path: CodingPath = ["items", 0, "0"]
        #expect(path.components == [.key("items"), .index(0), .key("0")])
        #expect(path == CodingPath([.key("items"), .index(0), .key("0")]))
    }

    @Test(
        arguments: [
            (["feed", "entry"], ".feed.entry"),
            (["items", 0, "name"], ".items[0].name"),
            (["com.example.id"], #"["com.example.id"]"#),
            (["0", 0], #"["0"][0]"#),
            (["say \"hi\""], #"["say \"hi\""]"#),
            (["snake_case", "kebab-case", "_private"], ".snake_case.kebab-case._private"),
            ([], "."),
        ] as [(CodingPath, String)])
    func describesItselfLikeJq(path: CodingPath, description: String) {
        #expect(path.description == description)
    }
}
