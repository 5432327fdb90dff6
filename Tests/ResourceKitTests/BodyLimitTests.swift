import Foundation
import ResourceKit
import ResourceKitTesting
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
        Webservice(transport: StubTransport.answering(.status(200, body: Data(repeating: 0x61, count: count))))
    }

    /// A transport that answers `body` with `status`, stopping at the limit it is given or not.
    private func transport(
        _ status: Int = 200,
        answering body: Data,
        stopsAtBodyLimit: Bool = true
    ) -> LimitedTransport {
        LimitedTransport(stub: .answering(.status(status, body: body)), stopsAtBodyLimit: stopsAtBodyLimit)
    }

    // MARK: Checking the body's size

    @Test func bodyOneByteLargerThanTheLimitIsTooLarge() async throws {
        let error = try await #require(throws: WebserviceError.self) {
            try await service(answering: 11).load(bytes(limit: 10))
        }
        #expect(try requireCase(\.bodyTooLarge, of: error) == 10)
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
        #expect(try requireCase(\.bodyTooLarge, of: error) == 0)
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

    @Test(arguments: [500, 200])
    func loadChecksTheSizeWhenATransportIgnoresTheLimit(statusCode: Int) async throws {
        // A limit applies to the body of an unacceptable status too.
        let transport = transport(statusCode, answering: Data(repeating: 0x61, count: 20), stopsAtBodyLimit: false)
        let error = try await #require(throws: WebserviceError.self) {
            try await Webservice(transport: transport).load(bytes(limit: 10))
        }
        #expect(try requireCase(\.bodyTooLarge, of: error) == 10)
        #expect(await transport.bodyLimits.all == [10])
    }

    // MARK: What the transport is told

    static let timeouts: [TimeInterval?] = [nil, 60]

    /// With a limit, a transport that can stop early is given it; without one, it is asked for the whole body.
    @Test(arguments: timeouts, [1_000, nil] as [Int?])
    func transportIsGivenTheResourcesLimit(timeout: TimeInterval?, limit: Int?) async throws {
        let transport = transport(answering: Data("12345".utf8))
        var resource = bytes(limit: limit)
        resource.timeout = timeout
        #expect(try await Webservice(transport: transport).load(resource) == Data("12345".utf8))
        #expect(await transport.bodyLimits.all == [limit])
    }

    @Test func transportUnderALimiterIsGivenTheLimitToo() async throws {
        let transport = transport(answering: Data("12345".utf8))
        let service = Webservice(transport: transport, maxConcurrentLoads: 1)
        #expect(try await service.load(bytes(limit: 5)) == Data("12345".utf8))
        #expect(await transport.bodyLimits.all == [5])
    }

    @Test func transportThatStopsEarlyHasItsErrorReportedAsItIs() async throws {
        let transport = transport(answering: Data(repeating: 0x61, count: 50))
        let error = try await #require(throws: WebserviceError.self) {
            try await Webservice(transport: transport).load(bytes(limit: 8))
        }
        #expect(try requireCase(\.bodyTooLarge, of: error) == 8)
        #expect(await transport.bodyLimits.all == [8])
    }

    @Test(arguments: timeouts)
    func transportsOwnBodyTooLargeIsRethrownUnchanged(timeout: TimeInterval?) async throws {
        // The transport's limit of 5 differs from the resource's 10: the error is the transport's, not rebuilt.
        let service = Webservice(
            transport: StubTransport.answering(.computed { _ in throw WebserviceError(.bodyTooLarge(limit: 5)) }))
        var resource = bytes(limit: 10)
        resource.timeout = timeout
        let error = try await #require(throws: WebserviceError.self) { try await service.load(resource) }
        #expect(try requireCase(\.bodyTooLarge, of: error) == 5, "not wrapped in transport")
        #expect(error.underlyingError == nil)
    }

    // MARK: Files

    private let filesOnly = Webservice(transport: FileTransport())

    @Test func fileLargerThanTheLimitIsTooLarge() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("export.bin")
            try Data(repeating: 0x61, count: 101).write(to: file)
            var resource = Resource<Data>(url: file)
            resource.maxBodySize = 100
            let error = try await #require(throws: WebserviceError.self) { try await filesOnly.load(resource) }
            #expect(try requireCase(\.bodyTooLarge, of: error) == 100)
        }
    }

    @Test func fileWithinTheLimitIsRead() async throws {
        let contents = Data(repeating: 0x61, count: 100)
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("export.bin")
            try contents.write(to: file)
            var exact = Resource<Data>(url: file)
            exact.maxBodySize = 100
            #expect(try await filesOnly.load(exact) == contents)
            var roomy = Resource<Data>(url: file)
            roomy.maxBodySize = 1_000_000
            #expect(try await filesOnly.load(roomy) == contents)
        }
    }

    @Test func missingFileWithALimitIsStillNoSuchFile() async throws {
        try await withTemporaryDirectory { directory in
            var resource = Resource<Data>(url: directory.appendingPathComponent("missing.bin"))
            resource.maxBodySize = 100
            let error = try await #require(throws: WebserviceError.self) { try await filesOnly.load(resource) }
            #expect((error.underlyingError as? CocoaError)?.code == .fileReadNoSuchFile)
        }
    }

    // MARK: Cached responses

    @Test func cachedBodyLargerThanALaterLimitIsTooLarge() async throws {
        let transport = StubTransport.answering(
            .status(200, headers: ["Cache-Control": "max-age=60"], body: Data(repeating: 0x61, count: 100)))
        let service = Webservice(transport: transport, cache: ResponseCache(byteLimit: 1_000_000))
        #expect(try await service.load(bytes("feed", limit: nil)).count == 100)
        let error = try await #require(throws: WebserviceError.self) {
            try await service.load(bytes("feed", limit: 99))
        }
        #expect(try requireCase(\.bodyTooLarge, of: error) == 99)
        #expect(try await service.load(bytes("feed", limit: 100)).count == 100)
        #expect(await transport.requests.count == 1, "the later loads were answered from the cache")
    }

    @Test func bodyRefusedAsTooLargeIsNotCached() async throws {
        let cache = ResponseCache(byteLimit: 1_000_000)
        let transport = StubTransport.answering(
            .status(200, headers: ["Cache-Control": "max-age=60"], body: Data(repeating: 0x61, count: 100)))
        let service = Webservice(transport: transport, cache: cache)
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
        let error = WebserviceError(.bodyTooLarge(limit: 1024))
        #expect(error.description == "The response body is larger than the resource's limit of 1024 bytes.")
        #expect(error.localizedDescription == error.description)
        #expect(
            WebserviceError(.bodyTooLarge(limit: 1)).description
                == "The response body is larger than the resource's limit of 1 byte.")
    }

    @Test func errorHasNoResponseParts() {
        let error = WebserviceError(.bodyTooLarge(limit: 1024))
        #expect(error.response == nil)
        #expect(error.statusCode == nil)
        #expect(error.body == nil)
        #expect(error.underlyingError == nil)
    }

    @Test func reflectionAndDumpNameTheLimit() throws {
        let error = WebserviceError(.bodyTooLarge(limit: 1024))
        #expect(String(reflecting: error).contains("1024"))
        var dumped = ""
        dump(error, to: &dumped)
        #expect(dumped.contains("bodyTooLarge"))
        #expect(dumped.contains("1024"))
        let reason = try #require(Mirror(reflecting: error).children.first)
        #expect(reason.label == "reason")
        let child = try #require(Mirror(reflecting: reason.value).children.first)
        #expect(child.label == "bodyTooLarge")
        let limit = Mirror(reflecting: child.value).children.first
        #expect(limit?.label == "limit")
        #expect(limit?.value as? Int == 1024)
    }
}

/// A transport that reads the body limit from the load's context, as `URLSessionTransport` does, over a stub: it
/// notes each load's limit, and when `stopsAtBodyLimit`, a longer body throws `bodyTooLarge`.
private struct LimitedTransport: Transport {
    let stub: StubTransport
    var stopsAtBodyLimit: Bool
    let bodyLimits = Notes<Int?>()

    func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        await bodyLimits.append(context.maxBodySize)
        let (body, response) = try await stub.data(for: request)
        if stopsAtBodyLimit, let limit = context.maxBodySize, body.count > limit {
            throw WebserviceError(.bodyTooLarge(limit: limit))
        }
        return (Response(statusCode: response.statusCode), ResponseBody(body))
    }
}
