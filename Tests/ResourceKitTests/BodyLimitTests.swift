import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A resource's `maxBodySize`: which bodies `Webservice.load` refuses, what the transport is told, and how the limit
/// applies to files and cached responses.
///
/// `URLSession`'s own early stop needs a server; the integration suite covers it.
@Suite struct BodyLimitTests {
    /// The resource for `…/path` whose model is the body's bytes, limited to `limit` bytes.
    private func bytes(_ path: String = "export", limit: Int?) -> Resource<Data> {
        var resource = Resource<Data>(url: baseURL.appendingPathComponent(path))
        resource.maxBodySize = limit
        return resource
    }

    /// A web service whose transport answers every request with a `200` and `count` bytes.
    private func service(answering count: Int) -> Webservice {
        Webservice(transport: StubTransport.answering(200, body: Data(repeating: 0x61, count: count)))
    }

    // MARK: Checking the body's size

    @Test func bodyOneByteLargerThanTheLimitIsTooLarge() async throws {
        let error = try await #require(throws: WebserviceError.self) {
            try await service(answering: 11).load(bytes(limit: 10))
        }
        guard case .bodyTooLarge(let limit) = error else {
            Issue.record("expected bodyTooLarge, got \(error)")
            return
        }
        #expect(limit == 10)
    }

    @Test func bodyOfExactlyTheLimitLoads() async throws {
        #expect(try await service(answering: 10).load(bytes(limit: 10)) == Data(repeating: 0x61, count: 10))
    }

    @Test func withoutALimitALargeBodyLoads() async throws {
        #expect(try await service(answering: 100_000).load(bytes(limit: nil)).count == 100_000)
    }

    @Test func zeroLimitAcceptsOnlyAnEmptyBody() async throws {
        #expect(try await service(answering: 0).load(bytes(limit: 0)).isEmpty)
        let error = try await #require(throws: WebserviceError.self) {
            try await service(answering: 1).load(bytes(limit: 0))
        }
        guard case .bodyTooLarge(limit: 0) = error else {
            Issue.record("expected bodyTooLarge(limit: 0), got \(error)")
            return
        }
    }

    @Test func bodyThatIsTooLargeIsNotParsed() async throws {
        var resource = Resource<Int>(url: baseURL) { data in
            Issue.record("parsed a body of \(data.count) bytes")
            return data.count
        }
        resource.maxBodySize = 4
        let error = try await #require(throws: WebserviceError.self) { try await service(answering: 5).load(resource) }
        #expect(error.body == nil)
    }

    @Test func limitAppliesToTheBodyOfAnUnacceptableStatus() async throws {
        let transport = StubTransport.answering(500, body: Data(repeating: 0x61, count: 20))
        let error = try await #require(throws: WebserviceError.self) {
            try await Webservice(transport: transport).load(bytes(limit: 10))
        }
        guard case .bodyTooLarge(limit: 10) = error else {
            Issue.record("expected bodyTooLarge(limit: 10), got \(error)")
            return
        }
    }

    @Test func loadChecksTheSizeWhenATransportIgnoresTheLimit() async throws {
        let calls = CallLog()
        let transport = LimitAwareTransport(calls: calls, body: Data(repeating: 0x61, count: 50), obeysLimit: false)
        let error = try await #require(throws: WebserviceError.self) {
            try await Webservice(transport: transport).load(bytes(limit: 10))
        }
        guard case .bodyTooLarge(limit: 10) = error else {
            Issue.record("expected bodyTooLarge(limit: 10), got \(error)")
            return
        }
        #expect(await calls.calls == [.limited(10)])
    }

    // MARK: What the transport is told

    static let timeouts: [TimeInterval?] = [nil, 60]

    @Test(arguments: timeouts)
    func transportThatCanStopEarlyIsGivenTheResourcesLimit(timeout: TimeInterval?) async throws {
        let calls = CallLog()
        let service = Webservice(transport: LimitAwareTransport(calls: calls, body: Data("12345".utf8)))
        var resource = bytes(limit: 1_000)
        resource.timeout = timeout
        #expect(try await service.load(resource) == Data("12345".utf8))
        #expect(await calls.calls == [.limited(1_000)])
    }

    @Test(arguments: timeouts)
    func withoutALimitTheTransportIsAskedForTheWholeBody(timeout: TimeInterval?) async throws {
        let calls = CallLog()
        let service = Webservice(transport: LimitAwareTransport(calls: calls, body: Data("12345".utf8)))
        var resource = bytes(limit: nil)
        resource.timeout = timeout
        #expect(try await service.load(resource) == Data("12345".utf8))
        #expect(await calls.calls == [.whole])
    }

    @Test func transportUnderALimiterIsGivenTheLimitToo() async throws {
        let calls = CallLog()
        let service = Webservice(
            transport: LimitAwareTransport(calls: calls, body: Data("12345".utf8)), maxConcurrentLoads: 1)
        #expect(try await service.load(bytes(limit: 5)) == Data("12345".utf8))
        #expect(await calls.calls == [.limited(5)])
    }

    @Test func transportThatStopsEarlyHasItsErrorReportedAsItIs() async throws {
        let calls = CallLog()
        let service = Webservice(transport: LimitAwareTransport(calls: calls, body: Data(repeating: 0x61, count: 50)))
        let error = try await #require(throws: WebserviceError.self) { try await service.load(bytes(limit: 8)) }
        guard case .bodyTooLarge(limit: 8) = error else {
            Issue.record("expected bodyTooLarge(limit: 8), got \(error)")
            return
        }
        #expect(await calls.calls == [.limited(8)])
    }

    @Test(arguments: timeouts)
    func transportsOwnBodyTooLargeIsRethrownUnchanged(timeout: TimeInterval?) async throws {
        // The transport's limit of 5 differs from the resource's 10: the error is the transport's, not rebuilt.
        let service = Webservice(transport: StubTransport { _ in throw WebserviceError.bodyTooLarge(limit: 5) })
        var resource = bytes(limit: 10)
        resource.timeout = timeout
        let error = try await #require(throws: WebserviceError.self) { try await service.load(resource) }
        guard case .bodyTooLarge(let limit) = error else {
            Issue.record("expected bodyTooLarge, not wrapped in transport, got \(error)")
            return
        }
        #expect(limit == 5)
        #expect(error.underlyingError == nil)
        #expect(error.urlError == nil)
    }

    // MARK: Files

    private let filesOnly = Webservice(transport: FileTransport())

    @Test func fileLargerThanTheLimitIsTooLarge() async throws {
        try await withTemporaryFile(Data(repeating: 0x61, count: 101)) { file in
            var resource = Resource<Data>(url: file)
            resource.maxBodySize = 100
            let error = try await #require(throws: WebserviceError.self) { try await filesOnly.load(resource) }
            guard case .bodyTooLarge(limit: 100) = error else {
                Issue.record("expected bodyTooLarge(limit: 100), got \(error)")
                return
            }
        }
    }

    @Test func fileWithinTheLimitIsRead() async throws {
        let contents = Data(repeating: 0x61, count: 100)
        try await withTemporaryFile(contents) { file throws in
            var exact = Resource<Data>(url: file)
            exact.maxBodySize = 100
            #expect(try await filesOnly.load(exact) == contents)
            var roomy = Resource<Data>(url: file)
            roomy.maxBodySize = 1_000_000
            #expect(try await filesOnly.load(roomy) == contents)
        }
    }

    @Test func missingFileWithALimitIsStillNoSuchFile() async throws {
        try await withTemporaryFile(Data()) { file in
            var resource = Resource<Data>(url: file.appendingPathExtension("missing"))
            resource.maxBodySize = 100
            let error = try await #require(throws: WebserviceError.self) { try await filesOnly.load(resource) }
            #expect((error.underlyingError as? CocoaError)?.code == .fileReadNoSuchFile)
        }
    }

    // MARK: Cached responses

    @Test func cachedBodyLargerThanALaterLimitIsTooLarge() async throws {
        let log = RequestLog()
        let service = Webservice(
            transport: StubTransport { request in
                await log.record(request)
                let headers = ["Cache-Control": "max-age=60"]
                let response = try httpResponse(200, url: try #require(request.url), headers: headers)
                return (Data(repeating: 0x61, count: 100), response)
            },
            cache: ResponseCache(byteLimit: 1_000_000)
        )
        #expect(try await service.load(bytes("feed", limit: nil)).count == 100)
        let error = try await #require(throws: WebserviceError.self) {
            try await service.load(bytes("feed", limit: 99))
        }
        guard case .bodyTooLarge(limit: 99) = error else {
            Issue.record("expected bodyTooLarge(limit: 99), got \(error)")
            return
        }
        #expect(try await service.load(bytes("feed", limit: 100)).count == 100)
        #expect(await log.requests.count == 1, "the later loads were answered from the cache")
    }

    @Test func bodyRefusedAsTooLargeIsNotCached() async throws {
        let cache = ResponseCache(byteLimit: 1_000_000)
        let service = Webservice(
            transport: StubTransport { request in
                let response = try httpResponse(
                    200, url: try #require(request.url), headers: ["Cache-Control": "max-age=60"])
                return (Data(repeating: 0x61, count: 100), response)
            },
            cache: cache
        )
        await #expect(throws: WebserviceError.self) { try await service.load(bytes("feed", limit: 10)) }
        #expect(await cache.count == 0)
    }

    // MARK: The resource and the error

    @Test func mapKeepsTheLimit() {
        var limited = Episode.all
        limited.maxBodySize = 2_048
        #expect(limited.map(\.count).maxBodySize == 2_048)
        #expect(limited.map(\.count).map { $0 > 0 }.maxBodySize == 2_048)
        #expect(Episode.all.maxBodySize == nil)
        #expect(Episode.all.map(\.count).maxBodySize == nil)
    }

    @Test func errorDescriptionNamesTheLimit() {
        let error = WebserviceError.bodyTooLarge(limit: 1024)
        #expect(error.description == "The response body is larger than the resource's limit of 1024 bytes.")
        #expect(error.localizedDescription == error.description)
        #expect(
            WebserviceError.bodyTooLarge(limit: 1).description
                == "The response body is larger than the resource's limit of 1 byte.")
    }

    @Test func errorHasNoResponseParts() {
        let error = WebserviceError.bodyTooLarge(limit: 1024)
        #expect(error.statusCode == nil)
        #expect(error.headers == nil)
        #expect(error.body == nil)
        #expect(error.underlyingError == nil)
        #expect(error.urlError == nil)
        #expect(error.value(forHTTPHeaderField: "Content-Length") == nil)
    }

    @Test func reflectionAndDumpNameTheLimit() {
        let error = WebserviceError.bodyTooLarge(limit: 1024)
        #expect(String(reflecting: error).contains("1024"))
        var dumped = ""
        dump(error, to: &dumped)
        #expect(dumped.contains("bodyTooLarge"))
        #expect(dumped.contains("1024"))
        let child = Mirror(reflecting: error).children.first
        #expect(child?.label == "bodyTooLarge")
        #expect(child?.value as? Int == 1024)
    }
}

/// What a ``LimitAwareTransport`` was asked for.
private enum Call: Equatable {
    /// `data(for:)`: the whole body.
    case whole
    /// `data(for:maxBodySize:)` with this limit.
    case limited(Int)
}

/// The calls a ``LimitAwareTransport`` received, in order.
private actor CallLog {
    private(set) var calls: [Call] = []

    func record(_ call: Call) {
        calls.append(call)
    }
}

/// A transport that implements `data(for:maxBodySize:)`, answers `body` with a `200`, and records which method ran.
///
/// When it obeys the limit it throws `bodyTooLarge` for a longer body, as `URLSession` does; otherwise it returns
/// the body whatever its size.
private struct LimitAwareTransport: Transport {
    let calls: CallLog
    var body: Data
    var obeysLimit = true

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        await calls.record(.whole)
        return (body, try httpResponse(200, url: try #require(request.url)))
    }

    func data(for request: URLRequest, maxBodySize: Int) async throws -> (Data, URLResponse) {
        await calls.record(.limited(maxBodySize))
        if obeysLimit, body.count > maxBodySize {
            throw WebserviceError.bodyTooLarge(limit: maxBodySize)
        }
        return (body, try httpResponse(200, url: try #require(request.url)))
    }
}

/// Writes `contents` to a new temporary file, runs `body` with its URL, and removes the file afterwards.
private func withTemporaryFile(_ contents: Data, _ body: (URL) async throws -> Void) async throws {
    let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("ResourceKitTests-\(UUID().uuidString).bin")
    try contents.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    try await body(file)
}
