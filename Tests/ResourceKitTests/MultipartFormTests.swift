import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

/// `multipart/form-data` bodies (RFC 7578), byte for byte, as a resource is created with them.
@Suite struct MultipartFormTests {
    /// A source of "random" numbers that counts up from 1, so the boundary is known.
    private final class Counter {
        var value: UInt64 = 0
        func next() -> UInt64 {
            value += 1
            return value
        }
    }

    private func encode(_ parts: [RequestBody.Part]) throws -> (body: String, contentType: String) {
        let counter = Counter()
        let (body, contentType) = try RequestBody.multipart(parts).encoded(random: counter.next)
        return (String(decoding: body, as: UTF8.self), contentType)
    }

    @Test func fieldsAndFilesAreEncodedWithTheBoundaryInTheContentType() throws {
        let (body, contentType) = try encode([
            .field("title", "Networking"),
            .file("cover", filename: "cover.png", contentType: "image/png", data: Data("PNG".utf8)),
        ])
        #expect(contentType == "multipart/form-data; boundary=ResourceKit-12")
        #expect(
            body
                == "--ResourceKit-12\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nNetworking\r\n"
                + "--ResourceKit-12\r\nContent-Disposition: form-data; name=\"cover\"; filename=\"cover.png\"\r\n"
                + "Content-Type: image/png\r\n\r\nPNG\r\n--ResourceKit-12--\r\n")
    }

    @Test func aBoundaryFoundInTheContentIsNotUsed() throws {
        let (body, contentType) = try encode([.field("trap", "ResourceKit-12 appears here")])
        #expect(contentType == "multipart/form-data; boundary=ResourceKit-34")
        #expect(body.hasPrefix("--ResourceKit-34\r\n"))
    }

    @Test func theResourcesBoundaryIsRandomAndNamedInItsContentType() throws {
        let boundaries = try (0..<2).map { _ in
            let resource = try Resource<Void>(url: baseURL, method: .post(.multipart([.field("a", "b")])))
            let contentType = try #require(resource.headers["Content-Type"])
            let boundary = try #require(contentType.split(separator: "=").last.map(String.init))
            let body = String(decoding: try #require(resource.method.body), as: UTF8.self)
            #expect(contentType == "multipart/form-data; boundary=\(boundary)")
            #expect(body.hasPrefix("--\(boundary)\r\n") && body.hasSuffix("\r\n--\(boundary)--\r\n"))
            return boundary
        }
        #expect(boundaries[0] != boundaries[1])
    }

    @Test func namesKeepUnicodeAndEscapeQuotesAndLineBreaks() throws {
        let (body, _) = try encode([
            .file(
                "f\"ile", filename: "résumé \"final\"\r\nX-Injected: 1.pdf", contentType: "application/pdf",
                data: Data())
        ])
        #expect(body.contains(#"name="f%22ile"; filename="résumé %22final%22%0D%0AX-Injected: 1.pdf""#))
        #expect(!body.contains("\r\nX-Injected"))
    }

    /// A `"` followed by a combining mark is one `Character` to Swift, and still a quote to a form parser.
    @Test func aQuoteFollowedByACombiningMarkIsEscapedToo() throws {
        let (body, _) = try encode([
            .field("bio\"\u{301}; filename=\"evil.sh", "text"),
            .file("f", filename: "a\"\u{301}; name=\"admin\r\u{301}", contentType: "text/plain", data: Data()),
        ])
        let dispositions = body.split(separator: "\r\n").filter { $0.hasPrefix("Content-Disposition") }
        #expect(
            dispositions.map { Array($0.utf8) }
                == [
                    #"Content-Disposition: form-data; name="bio%22\#u{301}; filename=%22evil.sh""#,
                    #"Content-Disposition: form-data; name="f"; filename="a%22\#u{301}; name=%22admin%0D\#u{301}""#,
                ].map { Array($0.utf8) })
    }

    @Test func aFilePartIsReadFromDiskWhenTheResourceIsCreated() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("notes.txt")
            try Data("from disk".utf8).write(to: url)
            let upload = try Resource<Void>(
                url: baseURL, method: .post(.multipart([.file("notes", at: url, contentType: "text/plain")])))
            try FileManager.default.removeItem(at: url)
            let body = String(decoding: try #require(upload.method.body), as: UTF8.self)
            #expect(body.contains("filename=\"notes.txt\"\r\nContent-Type: text/plain\r\n\r\nfrom disk\r\n"))
        }
    }

    @Test(arguments: [
        RequestBody.Part.file("f", at: URL(string: "https://api.example.com/file.txt")!),
        .file("f", at: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)")),
        .file("f", filename: "a", contentType: "text/plain\r\nX: 1", data: Data()),
    ])
    func aRemoteOrMissingFileOrABadContentTypeThrowsAnEncodingError(part: RequestBody.Part) throws {
        let error = try #require(throws: WebserviceError.self) {
            try Resource<Void>(url: baseURL, method: .post(.multipart([.field("ok", "1"), part])))
        }
        _ = try requireCase(\.encoding, of: error)
    }

    /// A device has no size, and reading a pipe (or `/dev/zero`) whole would never end: in a child process, so a
    /// regression fails this test (by its watchdog) instead of stalling the run.
    @Test(arguments: ["/dev/null", "fifo"])
    func aFilePartThatIsNotARegularFileThrowsAnEncodingErrorAtOnce(path: String) async throws {
        guard let child = try await ChildProcess.run(path, { try Self.errorCode(ofAFilePartAt: path) }) else { return }
        #expect(child.exitedNormally, "\(child.output.suffix(2_000))")
        #expect(child.result == "\(URLError.Code.cannotOpenFile.rawValue)")
    }

    /// The code of the `URLError` behind the error of a resource whose file part is `path`, or a new FIFO for
    /// `"fifo"`: `"created"` if the resource is made, `"0"` for an error of another type.
    private static func errorCode(ofAFilePartAt path: String) throws -> String {
        var url = URL(fileURLWithPath: path)
        if path == "fifo" {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)")
            guard mkfifo(url.path, 0o600) == 0 else { return "mkfifo failed" }
        }
        defer { if path == "fifo" { try? FileManager.default.removeItem(at: url) } }
        do {
            _ = try Resource<Void>(url: baseURL, method: .post(.multipart([.file("f", at: url)])))
            return "created"
        } catch {
            return "\((error.underlyingError as? URLError)?.code.rawValue ?? 0)"
        }
    }
}
