import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct QueryItemsTests {
    private func url(_ base: String, _ items: [URLQueryItem]) throws -> String? {
        var resource = Resource<Data>(url: try #require(URL(string: base)), parse: { $0 })
        resource.queryItems = items
        return URLRequest(resource: resource).url?.absoluteString
    }

    @Test func itemsAreAppendedInOrderWithDuplicateNamesKept() throws {
        let items = [
            URLQueryItem(name: "tag", value: "swift"), URLQueryItem(name: "page", value: "2"),
            URLQueryItem(name: "tag", value: "ios"),
        ]
        #expect(
            try url("https://api.example.com/search", items)
                == "https://api.example.com/search?tag=swift&page=2&tag=ios")
    }

    @Test(arguments: [
        ("C++", "C%2B%2B"), ("a&b=c", "a%26b%3Dc"), ("two words", "two%20words"), ("café", "caf%C3%A9"),
        ("🦄", "%F0%9F%A6%84"), ("semi;colon/slash?", "semi%3Bcolon%2Fslash%3F"), ("100%", "100%25"), ("", ""),
        ("a-b.c_d~e", "a-b.c_d~e"),
    ])
    func namesAndValuesArePercentEncodedCompletely(raw: String, encoded: String) throws {
        let result = try url("https://api.example.com/search", [URLQueryItem(name: raw, value: raw)])
        #expect(result == "https://api.example.com/search?\(encoded)=\(encoded)")
    }

    @Test func encodedValuesDecodeBackToTheOriginalStrings() throws {
        let values = ["C++ & Swift = fun", "naïve 東京", "a+b", "x=1&y=2"]
        let result = try #require(
            try url("https://api.example.com/s", values.map { URLQueryItem(name: "q", value: $0) }))
        let components = try #require(URLComponents(string: result))
        #expect(components.queryItems?.map(\.value) == values)
    }

    @Test func itemWithoutValueIsSentAsItsName() throws {
        #expect(
            try url("https://api.example.com/e", [URLQueryItem(name: "draft", value: nil)])
                == "https://api.example.com/e?draft")
    }

    @Test func existingQueryIsKeptAndItemsFollowIt() throws {
        let result = try url("https://api.example.com/e?sort=new&q=a%2Bb", [URLQueryItem(name: "page", value: "2")])
        #expect(result == "https://api.example.com/e?sort=new&q=a%2Bb&page=2")
    }

    @Test func fragmentStaysAfterTheQuery() throws {
        let result = try url("https://api.example.com/e?a=1#top", [URLQueryItem(name: "b", value: "2")])
        #expect(result == "https://api.example.com/e?a=1&b=2#top")
    }

    @Test func emptyQueryInTheURLDoesNotLeaveAStrayAmpersand() throws {
        #expect(
            try url("https://api.example.com/e?", [URLQueryItem(name: "b", value: "2")])
                == "https://api.example.com/e?b=2")
    }

    @Test func relativeURLKeepsItsBaseWhenItemsAreAdded() throws {
        var resource = Resource<Data>(url: try #require(URL(string: "episodes", relativeTo: baseURL)))
        resource.queryItems = [URLQueryItem(name: "page", value: "2")]
        #expect(URLRequest(resource: resource).url?.absoluteString == "https://api.example.com/episodes?page=2")
    }

    @Test func noItemsLeaveTheURLUntouched() throws {
        #expect(try url("https://api.example.com/e?a=%7E", []) == "https://api.example.com/e?a=%7E")
    }

    @Test func mapKeepsTheQueryItems() {
        var resource = Episode.all
        resource.queryItems = [URLQueryItem(name: "page", value: "2")]
        #expect(resource.map(\.count).queryItems == resource.queryItems)
    }
}
