import EpisodesService
import Foundation
import Testing

@testable import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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

    /// A `POST` of `body` with `contentType`, whose answer is decoded as `A`.
    private func post<A: Decodable & SendableMetatype>(_ body: Data, contentType: String, to url: URL) -> Resource<A> {
        Resource(url: url, method: .post(body), headers: ["Content-Type": contentType]) { data in
            try JSONDecoder().decode(A.self, from: data)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func multipartKitReadsEveryPartAsItWasWritten(kind: TransportKind) async throws {
        let binary = Data((0...255).map { UInt8($0) } + Array("\r\n--\r\n--ResourceKit-\r\n".utf8))
        let form = MultipartForm(parts: [
            .field("title", "Networking, «revisited»\r\nwith a line break"),
            .file("cover", filename: "résumé 1.png", contentType: "image/png", data: binary),
            .field("empty", ""),
        ])
        let (body, contentType) = try form.encoded()
        try await using(EpisodesServer.start(configure: { $0.addTransferRoutes() })) { base in
            let parts: [Part] = try await kind.webservice().load(
                post(body, contentType: contentType, to: base / "forms/multipart"))
            #expect(
                parts == [
                    Part(name: "title", body: Data("Networking, «revisited»\r\nwith a line break".utf8)),
                    Part(name: "cover", filename: "résumé 1.png", contentType: "image/png", body: binary),
                    Part(name: "empty", body: Data()),
                ])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func hummingbirdDecodesAnURLEncodedFormAsItWasWritten(kind: TransportKind) async throws {
        let fields = ["q": "a+b & c=d", "emoji": "👋 hello", "path": "/x/y?z#w", "empty": ""]
        let body = Data(HTTPSyntax.formEncoded(fields.sorted { $0.key < $1.key }.map(URLQueryItem.init)).utf8)
        try await using(EpisodesServer.start(configure: { $0.addTransferRoutes() })) { base in
            let decoded: [String: String] = try await kind.webservice().load(
                post(body, contentType: "application/x-www-form-urlencoded", to: base / "forms/urlencoded"))
            #expect(decoded == fields)
        }
    }
}
