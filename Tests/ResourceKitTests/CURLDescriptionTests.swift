import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request as a `curl` command for logs and bug reports, credentials masked.
@Suite struct CURLDescriptionTests {
    @Test func getIsTheURLAndItsSafeFields() {
        let request = Request(resource: Episode.all)
        #expect(
            request.cURLDescription == """
                curl '\(baseURL.absoluteString)/episodes' \\
                  -H 'Accept: application/json'
                """)
    }

    @Test func postShowsMethodFieldsInOrderAndBody() throws {
        var request = Request(url: try #require(URL(string: "https://api.example.com/episodes")))
        request.method = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("ResourceKit/0.1", forHTTPHeaderField: "User-Agent")
        request.body = RequestBody(Data(#"{"title":"It's new"}"#.utf8))
        #expect(
            request.cURLDescription == #"""
                curl -X 'POST' 'https://api.example.com/episodes' \
                  -H 'Content-Type: application/json' \
                  -H 'User-Agent: ResourceKit/0.1' \
                  --data-binary '{"title":"It'\''s new"}'
                """#)
    }

    @Test func noCredentialAppears() throws {
        let url = try #require(URL(string: "https://alice:pa55word@api.example.com/me?access_token=tok3n-123&page=2"))
        var request = Request(url: url)
        request.method = "PUT"
        request.setValue("Bearer s3cret-bearer", forHTTPHeaderField: "Authorization")
        request.setValue("k3y-value", forHTTPHeaderField: "X-Custom-Id")
        request.setValue("session=c00kie", forHTTPHeaderField: "Cookie")
        request.body = RequestBody(Data(#"{"name":"Alice","password":"hunter22","note":"k3y-value"}"#.utf8))
        let description = request.cURLDescription
        for secret in ["pa55word", "alice:", "tok3n-123", "s3cret-bearer", "k3y-value", "c00kie", "hunter22"] {
            #expect(!description.contains(secret), "\(secret) appears in \(description)")
        }
        #expect(description.contains("page=2"))
        #expect(description.contains(#""name":"Alice""#))
        #expect(description.contains("-H 'Authorization: REDACTED'"))
    }

    @Test(arguments: [Data([0xFF, 0xFE, 0x00, 0x01]), Data("ok\u{1B}]0;pwned\u{07}".utf8)])
    func aBodyThatIsNotPlainTextIsDescribedNotShown(body: Data) throws {
        var request = Request(url: baseURL)
        request.method = "POST"
        request.body = RequestBody(body)
        #expect(
            request.cURLDescription.hasSuffix(
                "--data-binary @body  # \(body.count) bytes that are not plain UTF-8 text, not shown"))
    }

    @Test func everyFieldOfAFormBodyIsChecked() throws {
        var request = Request(url: baseURL)
        request.method = "POST"
        request.body = RequestBody(Data("client_secret=S3CR3TVALUE&grant_type=refresh&password=hunter22".utf8))
        let description = request.cURLDescription
        #expect(description.hasSuffix("--data-binary 'client_secret=REDACTED&grant_type=refresh&password=REDACTED'"))
    }

    /// A shell reads bytes: a `'` followed by a combining mark is one `Character` to Swift, and still a quote to it.
    @Test func aQuoteFollowedByACombiningMarkStaysInsideItsWord() throws {
        let payload = "it'\u{301}; echo INJECTED; echo '\u{301}"
        var request = Request(url: try #require(URL(string: "https://api.example.com/notes")))
        request.method = "POST"
        request.setValue("text/plain; note=\(payload)", forHTTPHeaderField: "Content-Type")
        request.body = RequestBody(Data(#"{"note":"\#(payload)"}"#.utf8))
        let words = try shellWords(of: request.cURLDescription)
        #expect(
            words == [
                "curl", "-X", "POST", "https://api.example.com/notes", "-H",
                "Content-Type: text/plain; note=\(payload)",
                "--data-binary", #"{"note":"\#(payload)"}"#,
            ])
    }

    /// The body is shown from its first Unicode scalar: a combining mark that starts it is not dropped with a `&`.
    @Test func aBodyThatStartsWithACombiningMarkIsShownWhole() throws {
        var request = Request(url: try #require(URL(string: "https://api.example.com/notes")))
        request.method = "POST"
        request.body = RequestBody(Data("\u{301}note".utf8))
        #expect(try shellWords(of: request.cURLDescription).last.map { Array($0.utf8) } == Array("\u{301}note".utf8))
    }
}
