import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `file:` URLs: read from real temporary files by a web service that opted in with `FileTransport`, answered like an
/// HTTP `200`; refused, without reading the file, by the network transports.
@Suite struct FileResourceTests {
    private let service = Webservice(transport: FileTransport())

    static let networkWebservices: [(name: String, service: Webservice)] = [
        ("Webservice()", Webservice()),
        ("URLSessionTransport(configuration:)", Webservice(transport: URLSessionTransport(configuration: .ephemeral))),
        ("Webservice(session:)", Webservice(session: .shared)),
    ]

    @Test(arguments: networkWebservices)
    func networkWebServiceRefusesAFileURLWithoutReadingIt(name: String, service: Webservice) async throws {
        // A URL taken from a server's JSON, such as "next": "file:///proc/self/environ", must not read a local file.
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("secrets.json")
            try Data(#"[{"id": "secret", "title": "from disk"}]"#.utf8).write(to: file)
            let error = try await #require(throws: WebserviceError.self, "\(name)") {
                try await service.load(Resource<[Episode]>(get: file))
            }
            #expect((error.underlyingError as? URLError)?.code == .unsupportedURL, "\(name): \(error)")
            #expect("\(error)".contains("Only http and https URLs are sent"), "\(name): \(error)")
            #expect(error.body == nil)
        }
    }

    static let otherSchemes = ["data:application/json,%5B%5D", "ftp://localhost/episodes.json", "file:///etc/hostname"]

    @Test(arguments: otherSchemes)
    func urlSessionTransportSendsOnlyHTTPAndHTTPS(url: String) async throws {
        let request = Request(url: try #require(URL(string: url)))
        for transport in [URLSessionTransport(session: .shared), URLSessionTransport(configuration: .ephemeral)] {
            let error = try await #require(throws: URLError.self) { try await transport.data(for: request) }
            #expect(error.code == .unsupportedURL)
            let sent = try await #require(throws: URLError.self) {
                try await transport.send(request, context: LoadContext())
            }
            #expect(sent.code == .unsupportedURL)
        }
    }

    @Test func fileTransportReadsAFileURLInOneLine() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("episodes.json")
            try fixture("episodes.json").write(to: file)
            let episodes = try await Webservice(transport: FileTransport()).load(Resource<[Episode]>(get: file))
            #expect(episodes.map(\.id) == ["1", "2", "3"])
        }
    }

    @Test func fileTransportReadsNothingButFileURLs() async throws {
        let error = try await #require(throws: WebserviceError.self) { try await service.load(Episode.all) }
        #expect((error.underlyingError as? URLError)?.code == .unsupportedURL)
        #expect("\(error)".contains("Only file URLs are read"))
    }

    static let contentTypes: [(file: String, type: String?)] = [
        ("episodes.json", "application/json"),
        ("EPISODES.JSON", "application/json"),
        ("notes.txt", "text/plain"),
        ("cover.png", "image/png"),
        ("blob.bin", nil),
        ("no-extension", nil),
    ]

    @Test(arguments: contentTypes)
    func fileIsAnsweredAsHTTP200WithItsLengthAndATypeForItsExtension(file name: String, type: String?) async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent(name)
            try Data("not json".utf8).write(to: file)
            // A failing parse hands back the response the parse was given.
            let error = try await #require(throws: WebserviceError.self) {
                try await service.load(Resource<[Episode]>(get: file))
            }
            let response = try requireCase(\.parsing, of: error).response
            #expect(response.statusCode == 200)
            #expect(response.body.data == Data("not json".utf8))
            #expect(response.value(forHTTPHeaderField: "Content-Length") == "8")
            #expect(response.value(forHTTPHeaderField: "Content-Type") == type)
        }
    }

    @Test func emptyFileIsAnEmptyBody() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("empty.txt")
            try Data().write(to: file)
            #expect(try await service.load(Resource<Data>(url: file) { $0 }).isEmpty)
        }
    }

    @Test func missingFileIsATransportErrorSayingNoSuchFile() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("missing.json")
            let error = try await #require(throws: WebserviceError.self) {
                try await service.load(Resource<[Episode]>(get: file))
            }
            #expect((try requireCase(\.transport, of: error) as? CocoaError)?.code == .fileReadNoSuchFile)
            #expect(error.statusCode == nil)
        }
    }

    @Test func directoryIsATransportError() async throws {
        try await withTemporaryDirectory { directory in
            let error = try await #require(throws: WebserviceError.self) {
                try await service.load(Resource<[Episode]>(get: directory))
            }
            #expect(try requireCase(\.transport, of: error) is CocoaError)
        }
    }

    static let methodsThatWouldChangeAFile: [HTTPMethod<Data>] = [
        .post(Data("new".utf8)), .put(Data("new".utf8)), .patch(Data("new".utf8)), .delete,
    ]

    @Test(arguments: methodsThatWouldChangeAFile)
    func onlyGETLoadsAFileAndNothingIsWritten(method: HTTPMethod<Data>) async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("episode.json")
            try Data("original".utf8).write(to: file)
            let resource = Resource<Data>(url: file, method: method) { $0 }
            let error = try await #require(throws: WebserviceError.self) { try await service.load(resource) }
            #expect((error.underlyingError as? URLError)?.code == .unsupportedURL)
            #expect("\(error)".contains("only be loaded with GET; \(method.name)"))
            #expect(try Data(contentsOf: file) == Data("original".utf8))
        }
    }
}
