import EpisodesService
import Foundation
import ResourceKit
import Testing

/// ResourceKit's form bodies, read back by parsers that are not ResourceKit's: vapor/multipart-kit for
/// `multipart/form-data`, Hummingbird's `URLEncodedFormDecoder` for `application/x-www-form-urlencoded`.
@Suite(.timeLimit(.minutes(1))) struct FormBodyTests {
    /// A part as the server's `/forms/multipart` route found it.
    struct Part: Decodable, Equatable {
        var name: String?
        var filename: String?
        var contentType: String?
        var body: Data
    }

    @Test(arguments: TransportKind.allCases)
    func multipartKitReadsEveryPartAsItWasWrittenFilesFromDiskIncluded(kind: TransportKind) async throws {
        let binary = Data((0...255).map { UInt8($0) } + Array("\r\n--\r\n--ResourceKit-\r\n".utf8))
        let video = FileManager.default.temporaryDirectory.appendingPathComponent("clip \(UUID().uuidString).mp4")
        let frames = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try frames.write(to: video)
        defer { try? FileManager.default.removeItem(at: video) }
        try await using(EpisodesServer.start(configure: { $0.addTransferRoutes() })) { base in
            let upload = try Resource<[Part]>(
                url: base / "forms/multipart",
                method: .post(
                    .multipart([
                        .field("title", "Networking, «revisited»\r\nwith a line break"),
                        .file("cover", filename: "résumé 1.png", contentType: "image/png", data: binary),
                        .field("empty", ""),
                        .file("video", at: video, filename: "clip.mp4", contentType: "video/mp4"),
                    ])))
            let parts = try await kind.webservice().load(upload)
            #expect(
                parts == [
                    Part(name: "title", body: Data("Networking, «revisited»\r\nwith a line break".utf8)),
                    Part(name: "cover", filename: "résumé 1.png", contentType: "image/png", body: binary),
                    Part(name: "empty", body: Data()),
                    Part(name: "video", filename: "clip.mp4", contentType: "video/mp4", body: frames),
                ])
        }
    }

    /// A part's `Content-Disposition` as the server read it, on bytes: the names of its parameters, in order.
    struct Disposition: Decodable {
        var name: String?
        var filename: String?
        var parameters: [String]
    }

    /// A `"` followed by a combining mark is one `Character` to Swift but still a quote to a server, which reads bytes:
    /// it must not end the name, nor a file name, early and let what follows become parameters of their own.
    @Test(arguments: TransportKind.allCases)
    func aQuoteFollowedByACombiningMarkDoesNotEndItsParameter(kind: TransportKind) async throws {
        let fieldName = "bio\"\u{301}; filename=\"evil.sh"
        let fileName = "notes\"\u{301}; x=\"y.txt"
        try await using(EpisodesServer.start(configure: { $0.addTransferRoutes() })) { base in
            let upload = try Resource<[Disposition]>(
                url: base / "forms/multipart",
                method: .post(
                    .multipart([
                        .field(fieldName, "text"),
                        .file("doc", filename: fileName, contentType: "text/plain", data: Data("file".utf8)),
                    ])))
            let parts = try await kind.webservice().load(upload)
            try #require(parts.count == 2, "\(parts)")
            #expect(parts.map(\.parameters) == [["name"], ["name", "filename"]])
            #expect(parts.filter { $0.filename == nil }.count == 1, "one text field, and no other")
            // The quote arrives percent-encoded, as HTML's form submission writes it: `%22` reads back as `"`.
            let decoded = { (value: String?) in value?.removingPercentEncoding.map { Array($0.unicodeScalars) } }
            #expect(decoded(parts[0].name) == Array(fieldName.unicodeScalars), "\(parts[0])")
            #expect(decoded(parts[1].filename) == Array(fileName.unicodeScalars), "\(parts[1])")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func hummingbirdDecodesAnURLEncodedFormAsItWasWritten(kind: TransportKind) async throws {
        let fields = ["q": "a+b & c=d", "emoji": "👋 hello", "path": "/x/y?z#w", "empty": ""]
        let items = fields.sorted { $0.key < $1.key }.map(URLQueryItem.init)
        try await using(EpisodesServer.start(configure: { $0.addTransferRoutes() })) { base in
            let form = try Resource<[String: String]>(url: base / "forms/urlencoded", method: .post(.urlEncoded(items)))
            #expect(try await kind.webservice().load(form) == fields)
        }
    }
}
