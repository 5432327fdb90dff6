import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Webservice.load` with `file:` URLs: read from real temporary files, never through the transport, answered like
/// an HTTP `200`.
@Suite struct FileResourceTests {
    /// A web service whose transport fails the test if a request reaches it.
    private let service = Webservice(
        transport: StubTransport { request in
            Issue.record("the transport was asked for \(request.url?.absoluteString ?? "nothing")")
            throw URLError(.unsupportedURL)
        })

    @Test func fileURLIsReadWithoutTheTransport() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("episodes.json")
            try fixture("episodes.json").write(to: file)
            let episodes = try await service.load(Resource<[Episode]>(get: file))
            #expect(episodes.map(\.id) == ["1", "2", "3"])
        }
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
            guard case .parsing(_, statusCode: 200, _, let body) = error else {
                Issue.record("expected a parse error on a 200 response, got \(error)")
                return
            }
            #expect(body == Data("not json".utf8))
            #expect(error.value(forHTTPHeaderField: "Content-Length") == "8")
            #expect(error.value(forHTTPHeaderField: "Content-Type") == type)
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
            guard case .transport(let underlying as CocoaError) = error else {
                Issue.record("expected transport(CocoaError), got \(error)")
                return
            }
            #expect(underlying.code == .fileReadNoSuchFile)
            #expect(error.statusCode == nil)
        }
    }

    @Test func directoryIsATransportError() async throws {
        try await withTemporaryDirectory { directory in
            let error = try await #require(throws: WebserviceError.self) {
                try await service.load(Resource<[Episode]>(get: directory))
            }
            guard case .transport(let underlying) = error else {
                Issue.record("expected a transport error, got \(error)")
                return
            }
            #expect(underlying is CocoaError)
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
            #expect(error.urlError?.code == .unsupportedURL)
            #expect("\(error)".contains("only be loaded with GET; \(method.name)"))
            #expect(try Data(contentsOf: file) == Data("original".utf8))
        }
    }

    @Test func fileLoadDoesNotWaitForALoadPlace() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("episodes.json")
            try fixture("episodes.json").write(to: file)
            let gate = Gate()
            let service = Webservice(transport: GatedTransport(gate: gate), maxConcurrentLoads: 1)
            let held = Task { try await service.load(Gate.resource("held")) }
            try await eventually("the other load holds the only place") { await gate.started == ["held"] }
            let fileLoad = Task { try await service.load(Resource<[Episode]>(get: file)) }
            let finished = FileLoadOutcome()
            Task { await finished.record(await fileLoad.result) }
            try await eventually("the file load finished while the place was taken") { await finished.count != nil }
            await gate.open("held")
            #expect(try await fileLoad.value.count == 3)
            _ = try await held.value
        }
    }
}

/// Runs `body` with a new, empty temporary directory, and removes it afterwards.
private func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("ResourceKitTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
}

/// How many episodes a file load returned, once it has finished (-1 when it failed).
private actor FileLoadOutcome {
    private(set) var count: Int?

    func record(_ result: Result<[Episode], any Error>) {
        count = (try? result.get().count) ?? -1
    }
}
