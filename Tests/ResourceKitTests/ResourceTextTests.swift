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

/// `Resource<String>(url:textEncoding:)`: text decoded with the response's charset, or the text encoding without one.
@Suite struct ResourceTextTests {
    private let text = Resource<String>(url: baseURL.appendingPathComponent("notes.txt"), textEncoding: .utf8)

    /// The text of `body` as the response to `resource`, served with `contentType`.
    private func value(_ body: Data, contentType: String, of resource: Resource<String>? = nil) throws -> String {
        try (resource ?? text).value(from: body, response: httpResponse(200, headers: ["Content-Type": contentType]))
    }

    /// The description of the `DecodingError.dataCorrupted` that `body` served with `contentType` makes the parse
    /// throw.
    private func parseError(_ body: Data, contentType: String) throws -> String {
        let error = try #require(throws: WebserviceError.self) { try value(body, contentType: contentType) }
        let (underlying, response) = try requireCase(\.parsing, of: error)
        #expect(response.body.data == body)
        return try requireCase(\.dataCorrupted, of: underlying as? DecodingError).debugDescription
    }

    /// What the parse says of a body that is not valid text in `encoding`.
    private func invalidText(_ encoding: String.Encoding) -> String {
        "The body is not valid \(Charset.displayName(of: encoding)) text."
    }

    /// The description of the `DecodingError.dataCorrupted` the parse throws for `body` without a response.
    private func parseError(_ body: Data, of resource: Resource<String>) throws -> String {
        let error = try #require(throws: DecodingError.self) { try resource.parse(body) }
        return try requireCase(\.dataCorrupted, of: error).debugDescription
    }

    @Test func parseWithoutAResponseReadsTheTextEncoding() throws {
        #expect(try text.parse(fixture("text-utf8.txt")) == "Grüße, 世界 👋\n")
        #expect(try text.parse(fixture("empty.json")) == "")
    }

    @Test func responseWithoutACharsetIsReadAsUTF8() throws {
        #expect(try value(fixture("text-utf8.txt"), contentType: "text/plain") == "Grüße, 世界 👋\n")
    }

    @Test(arguments: [
        ("text/plain; charset=utf-8", "text-utf8.txt", "Grüße, 世界 👋\n"),
        ("text/plain;charset=UTF8", "text-utf8.txt", "Grüße, 世界 👋\n"),
        ("text/plain; charset=ISO-8859-1", "text-latin1.txt", "Grüße aus Köln\n"),
        ("text/plain; Charset=latin1", "text-latin1.txt", "Grüße aus Köln\n"),
        ("text/html; charset=\"windows-1252\"", "text-windows1252.txt", "“Grüße” – 5 €\n"),
        ("text/plain; format=flowed; CHARSET = CP1252 ", "text-windows1252.txt", "“Grüße” – 5 €\n"),
        ("text/plain; charset=utf-16", "text-utf16.txt", "Grüße 👋\n"),
        ("text/plain; charset=UTF-16BE", "text-utf16be.txt", "Grüße 👋\n"),
        ("text/csv; header=present; charset=us-ascii", "episode.json", #"{"id": "1", "title": "Networking"}"# + "\n"),
        (#"text/plain; title="a;charset=latin1\"b"; charset=utf-8"#, "text-utf8.txt", "Grüße, 世界 👋\n"),
    ])
    func charsetOfTheContentTypeDecodesTheBody(contentType: String, fixtureName: String, expected: String) throws {
        #expect(try value(fixture(fixtureName), contentType: contentType) == expected)
    }

    @Test(arguments: [
        ("iso-8859-2", Data([0xA3, 0xF3, 0x64, 0xBC]), "Łódź"),
        ("Latin2", Data([0xA3, 0xF3, 0x64, 0xBC]), "Łódź"),
        ("windows-1250", Data([0xA3, 0xF3, 0x64, 0x9F]), "Łódź"),
        ("windows-1251", Data([0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]), "Привет"),
    ])
    func centralAndEasternEuropeanCharsetsDecode(charset: String, body: Data, expected: String) throws {
        #expect(try value(body, contentType: "text/plain; charset=\(charset)") == expected)
    }

    @Test func charsetWinsOverTheTextEncoding() throws {
        let latin1 = Resource<String>(url: baseURL, textEncoding: .isoLatin1)
        let body = try fixture("text-utf8.txt")
        #expect(try value(body, contentType: "text/plain; charset=utf-8", of: latin1) == "Grüße, 世界 👋\n")
    }

    @Test func textEncodingReadsABodyWithoutACharset() throws {
        let latin1 = Resource<String>(url: baseURL, textEncoding: .isoLatin1)
        #expect(try latin1.parse(fixture("text-latin1.txt")) == "Grüße aus Köln\n")
        #expect(try value(fixture("text-latin1.txt"), contentType: "text/plain", of: latin1) == "Grüße aus Köln\n")
    }

    @Test(arguments: [
        ("text/plain; charset=utf-8", Data([0x63, 0x61, 0x66, 0xC3, 0x28]), String.Encoding.utf8),
        ("text/plain", Data([0xFF]), .utf8),
        ("text/plain; charset=us-ascii", Data("Köln".utf8), .ascii),
        ("text/plain; charset=windows-1252", Data([0x41, 0x81, 0x42]), .windowsCP1252),
        ("text/plain; charset=windows-1250", Data([0x41, 0x98, 0x42]), .windowsCP1250),
        ("text/plain; charset=windows-1251", Data([0x41, 0x98, 0x42]), .windowsCP1251),
        ("text/plain; charset=utf-16", Data([0xFF, 0xFE, 0x41, 0x00, 0x42]), .utf16),
        ("text/plain; charset=utf-16be", Data([0x00, 0x41, 0x00]), .utf16BigEndian),
        ("text/plain; charset=utf-8", Data([0xC0, 0x80]), .utf8),
        ("text/plain; charset=utf-8", Data([0xED, 0xA0, 0x80]), .utf8),
        ("text/plain; charset=utf-16le", Data([0x00, 0xD8, 0x41, 0x00]), .utf16LittleEndian),
        ("text/plain; charset=utf-16le", Data([0x41, 0x00, 0x00, 0xDC]), .utf16LittleEndian),
        ("text/plain; charset=utf-16be", Data([0xD8, 0x00, 0x00, 0x41]), .utf16BigEndian),
        ("text/plain; charset=utf-16", Data([0xFE, 0xFF, 0xD8, 0x3D]), .utf16),
    ])
    func bytesInvalidInTheCharsetThrowInvalidBytes(
        contentType: String,
        body: Data,
        encoding: String.Encoding
    ) throws {
        #expect(try parseError(body, contentType: contentType) == invalidText(encoding))
    }

    @Test func invalidUTF8FixtureThrowsInsteadOfReplacingBytes() throws {
        #expect(try parseError(fixture("text-utf8-invalid.txt"), of: text) == invalidText(.utf8))
    }

    @Test func emptyCharsetIsReadAsNoCharset() throws {
        #expect(try value(fixture("text-utf8.txt"), contentType: "text/plain; charset=", of: text) == "Grüße, 世界 👋\n")
    }

    @Test(arguments: ["klingon", "utf-7"])
    func unknownCharsetThrowsNamingIt(name: String) throws {
        let error = try parseError(fixture("text-utf8.txt"), contentType: "text/plain; charset=\"\(name)\"")
        #expect(error == "The response's charset \"\(name)\" is not one ResourceKit can decode.")
    }

    @Test func errorDescriptionsNameTheEncoding() {
        #expect(invalidText(.windowsCP1252) == "The body is not valid windows-1252 text.")
        #expect(invalidText(.utf8) == "The body is not valid UTF-8 text.")
    }

    @Test func byteOrderMarksPickTheByteOrderAndAreDropped() throws {
        let utf16 = Resource<String>(url: baseURL, textEncoding: .utf16)
        #expect(try utf16.parse(Data([0xFE, 0xFF, 0x00, 0x41])) == "A")
        #expect(try utf16.parse(Data([0xFF, 0xFE, 0x41, 0x00])) == "A")
        #expect(try utf16.parse(Data([0x00, 0x41])) == "A", "UTF-16 without a byte order mark is big-endian")
        #expect(try text.parse(Data([0xEF, 0xBB, 0xBF, 0x41])) == "A")
        let little = Resource<String>(url: baseURL, textEncoding: .utf16LittleEndian)
        #expect(try little.parse(Data([0xFF, 0xFE, 0x41, 0x00])) == "A")
        #expect(try little.parse(Data([0x41, 0x00])) == "A")
        let big = Resource<String>(url: baseURL, textEncoding: .utf16BigEndian)
        #expect(try big.parse(Data([0xFE, 0xFF, 0x00, 0x41])) == "A")
    }

    @Test func utf32TextEncodingRejectsATruncatedBody() throws {
        let utf32 = Resource<String>(url: baseURL, textEncoding: .utf32BigEndian)
        #expect(try utf32.parse(Data([0x00, 0x00, 0x00, 0x41])) == "A")
        #expect(try parseError(Data([0x00, 0x00, 0x00, 0x41, 0x00]), of: utf32) == invalidText(.utf32BigEndian))
    }

    @Test(arguments: ["text/plain; charset=utf-8", "text/plain; charset=utf-16", "text/plain; charset=us-ascii"])
    func emptyBodyIsAnEmptyString(contentType: String) throws {
        #expect(try value(Data(), contentType: contentType) == "")
    }

    @Test func addsNoHeadersAndPicksTheTextInitializerForAnyMethod() throws {
        #expect(text.headers.isEmpty)
        #expect(text.method == .get)
        let post = Resource<String>(
            url: baseURL, method: .post(Data("q=1".utf8)), headers: ["X-Trace": "1"], textEncoding: .utf8)
        #expect(post.method == .post(Data("q=1".utf8)))
        #expect(post.headers == ["X-Trace": "1"])
        // `String` is Decodable too; the text initializer reads text, never a JSON string.
        #expect(try post.parse(Data("plain, not JSON".utf8)) == "plain, not JSON")
    }

    @Test func loadDecodesWithTheResponsesCharset() async throws {
        let service = Webservice(
            transport: StubTransport.answering(
                .status(
                    200, headers: ["content-type": "text/plain; charset=iso-8859-1"],
                    body: try fixture("text-latin1.txt"))
            ))
        #expect(try await service.load(text) == "Grüße aus Köln\n")
    }
}
