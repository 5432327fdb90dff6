import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

/// Which requests a credential belongs to: the same scheme, host and port.
@Suite struct OriginTests {
    private func origin(_ text: String) throws -> Origin {
        Origin(try #require(URL(string: text)))
    }

    @Test(arguments: [
        ("https://api.example.com/a", "https://API.example.com:443/b?c=d"),
        ("http://example.com", "HTTP://example.com:80/"),
        ("https://example.com:8443/x", "https://example.com:8443/y"),
    ])
    func sameOriginDespiteCaseDefaultPortAndPath(first: String, second: String) throws {
        #expect(try origin(first) == origin(second))
    }

    @Test(arguments: [
        ("https://api.example.com", "http://api.example.com"),
        ("https://api.example.com", "https://evil.example.com"),
        ("https://api.example.com", "https://api.example.com:8443"),
        ("https://api.example.com", "https://api.example.com.evil.net"),
        ("https://example.com", "https://example.com@evil.net"),
    ])
    func otherSchemeHostOrPortIsAnotherOrigin(first: String, second: String) throws {
        #expect(try origin(first) != origin(second))
    }
}
