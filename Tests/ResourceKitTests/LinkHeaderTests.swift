import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

/// Where a `Link` header field says the next page is (RFC 8288): pure parsing, no network.
@Suite struct LinkHeaderTests {
    private let base = URL(string: "https://api.example.com/items?page=1")!

    private func next(_ value: String) throws -> String? {
        try LinkHeader.target(of: "next", in: value, relativeTo: base)?.absoluteString
    }

    @Test func theNextLinkIsFoundAmongOthers() throws {
        let value =
            #"<https://api.example.com/items?page=1>; rel="first", <https://api.example.com/items?page=2>; rel="next""#
        #expect(try next(value) == "https://api.example.com/items?page=2")
    }

    @Test(arguments: [
        (#"<?page=2>; rel=next"#, "https://api.example.com/items?page=2"),
        (#"</v2/items?page=2>; REL="Next Last""#, "https://api.example.com/v2/items?page=2"),
        (#"<https://cdn.example.com/a,b?page=2>; title="x, y"; rel="next""#, "https://cdn.example.com/a,b?page=2"),
        (#"<https://api.example.com/items?page=2> ; rel = "next""#, "https://api.example.com/items?page=2"),
        // A quote followed by a combining mark still ends the quoted string, as it does for a parser of bytes.
        (
            "<https://api.example.com/items?page=1>; title=\"x\"\u{301}, <https://api.example.com/items?page=2>; rel=next",
            "https://api.example.com/items?page=2"
        ),
    ])
    func relativeTargetsQuotingCaseAndCommasAreRead(value: String, url: String) throws {
        #expect(try next(value) == url)
    }

    @Test(arguments: [
        "", "garbage", "<https://api.example.com/items?page=2>", #"<https://api.example.com/items?page=2>; rel="prev""#,
        #"<https://api.example.com/items?page=2; rel="next""#,
        #"<https://api.example.com/items?page=2>; rel="nextpage""#,
    ])
    func noNextLinkIsNil(value: String) throws {
        #expect(try next(value) == nil)
    }

    @Test(arguments: [
        #"<file:///etc/passwd>; rel="next""#, #"<javascript:alert(1)>; rel="next""#, #"<ftp://host/x>; rel="next""#,
        #"<http://[::1>; rel="next""#,
    ])
    func aNextLinkThatIsNotHTTPIsRefused(value: String) throws {
        let error = try #require(throws: URLError.self) { try next(value) }
        #expect(error.code == .unsupportedURL)
    }

    @Test func hostileInputEndsWithoutACrash() {
        for value in [
            String(repeating: "<", count: 10_000), String(repeating: #"<a>; rel=""#, count: 1_000), "<>;,,;;\"\\",
        ] {
            _ = LinkHeader.links(in: value)
        }
        #expect(LinkHeader.links(in: "<a>; rel=next, <b>").map(\.target) == ["a", "b"])
    }
}
