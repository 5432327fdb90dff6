import Foundation
import ResourceKit
import ResourceKitTesting
import Synchronization
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads to files and uploads from files: what reaches the disk, the transport and the progress closure, with a
/// transport that can't stream them (the kit's stub); the streaming transports are checked against a real server in
/// the integration suite.
@Suite struct FileTransferTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func downloadIsSavedAtItsDestinationAndReportedOnce() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("export.zip")
        let log = ProgressLog()
        var download = Resource<URL>(url: baseURL.appendingPathComponent("export"), downloadingTo: destination)
        download.progress = log.receiver
        let webservice = Webservice(transport: StubTransport.answering(.status(200, body: Data("zip".utf8))))

        #expect(try await webservice.load(download) == destination)

        #expect(try Data(contentsOf: destination) == Data("zip".utf8))
        #expect(try files(in: directory) == ["export.zip"])
        #expect(log.reports == [TransferProgress(isUpload: false, bytes: 3, expectedBytes: nil)])
    }

    @Test func downloadWithAnUnacceptableStatusKeepsTheBodyForTheErrorAndWritesNothing() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let download = Resource<URL>(url: baseURL, downloadingTo: directory.appendingPathComponent("file"))
        let webservice = Webservice(transport: StubTransport.answering(.json(#"{"error":"gone"}"#, status: 410)))

        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(download) }

        #expect(error.statusCode == 410)
        #expect(error.body == Data(#"{"error":"gone"}"#.utf8))
        #expect(try files(in: directory).isEmpty)
    }

    @Test func downloadsErrorBodyIsKeptUpToAMebibyte() throws {
        let transfer = Transfer(destination: baseURL)
        var body = try ArrivingBody(status: 500, expectedLength: nil, maxBodySize: nil, for: transfer)
        _ = try body.append(.data(Data(count: 3 * Transfer.errorBodyLimit)))
        #expect(try body.finish().0.count == Transfer.errorBodyLimit)
    }

    @Test func bodyPastTheLimitFailsAndTheAbandonedFileIsRemoved() throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file")
        let transfer = Transfer(destination: destination)

        var body = try ArrivingBody(status: 200, expectedLength: nil, maxBodySize: 10, for: transfer)
        _ = try body.append(.data(Data(count: 10)))
        #expect(try files(in: directory).count == 1)
        let tooLarge = #expect(throws: WebserviceError.self) { _ = try body.append(.data(Data(count: 1))) }
        #expect(tooLarge?.bodyTooLarge == 10)
        body.abandon()

        #expect(try files(in: directory).isEmpty)
        let announced = #expect(throws: WebserviceError.self) {
            _ = try ArrivingBody(status: 200, expectedLength: 11, maxBodySize: 10, for: transfer)
        }
        #expect(announced?.bodyTooLarge == 10)
        #expect(try files(in: directory).isEmpty)
    }

    #if os(Linux)
        /// In a child process, where no other test opens or closes a descriptor between the close and the `dup2` that
        /// takes its number.
        @Test func destinationThatCantBeReplacedFailsAndTheFileIsClosedOnce() async throws {
            guard let child = try await ChildProcess.run("descriptor", { try Self.abandonAfterTheNumberIsTaken() })
            else { return }
            #expect(child.exitedNormally, "\(child.output)")
            #expect(child.result == "cannotMoveFile, the descriptor still open, no file left")
        }

        /// Finishes a download whose destination is a directory, gives the number its file had to another file, then
        /// abandons the body and moves the file: what happened, in words.
        private static func abandonAfterTheNumberIsTaken() throws -> String {
            let directory = try newDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let destination = directory.appendingPathComponent("taken")
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
            let transfer = Transfer(destination: destination)
            var body = try ArrivingBody(status: 200, expectedLength: nil, maxBodySize: nil, for: transfer)
            _ = try body.append(.data(Data("x".utf8)))
            // The temporary file's descriptor, found by where it leads.
            let descriptor = try #require(
                try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap(Int32.init).first {
                    let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
                    return target?.hasPrefix(directory.path) == true
                })

            let commit = try #require(try body.finish().2?.takeCommit())
            // Another file takes the number the temporary file had; abandoning the body must not close it.
            let other = open("/dev/null", O_RDONLY)
            guard dup2(other, descriptor) == descriptor else { return "dup2 failed" }
            body.abandon()
            var outcome: String
            do {
                try commit()
                outcome = "moved"
            } catch let error as URLError {
                outcome = error.code == .cannotMoveFile ? "cannotMoveFile" : "\(error.code)"
            }
            outcome += fcntl(descriptor, F_GETFD) != -1 ? ", the descriptor still open" : ", closed a second time"
            close(descriptor)
            close(other)
            outcome += try files(in: directory) == ["taken"] ? ", no file left" : ", a file left"
            return outcome
        }
    #endif

    @Test func destinationWithTheLongestNameAFileCanHaveIsSaved() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = String(repeating: "é", count: 127) + "a"  // 255 bytes, as long as Linux and macOS allow
        let destination = directory.appendingPathComponent(name)
        let webservice = Webservice(transport: StubTransport.answering(.status(200, body: Data("x".utf8))))

        #expect(try await webservice.load(Resource<URL>(url: baseURL, downloadingTo: destination)) == destination)

        #expect(try Data(contentsOf: destination) == Data("x".utf8))
        #expect(try files(in: directory).count == 1)
    }

    @Test(arguments: [URL(string: "https://example.com/file")!, URL(fileURLWithPath: "/no/such/directory/file")])
    func destinationThatCantBeCreatedIsAnError(destination: URL) async throws {
        let download = Resource<URL>(url: baseURL, downloadingTo: destination)
        let webservice = Webservice(transport: StubTransport.answering(.status(200, body: Data("x".utf8))))
        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(download) }
        #expect((error.underlyingError as? URLError)?.code == .cannotCreateFile)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func uploadIsReadIntoMemoryForATransportThatCantStream() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("video.mp4")
        try Data("frames".utf8).write(to: file)
        let log = ProgressLog()
        var upload = try Resource<Void>(url: baseURL, method: .put(.file(file, contentType: "video/mp4")))
        upload.progress = log.receiver
        let stub = StubTransport.answering(.status(201))

        _ = try await Webservice(transport: stub).load(upload)

        let sent = try #require(await stub.requests.first)
        #expect(sent.method == "PUT")
        #expect(sent.bodyBytes == Data("frames".utf8))
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "video/mp4")
        #expect(log.reports.first == TransferProgress(isUpload: true, bytes: 6, expectedBytes: 6))
    }

    @Test func uploadFromALinkSendsTheFileItLeadsToAndADirectoryIsRefused() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("file")
        try Data("linked".utf8).write(to: file)
        let link = directory.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let stub = StubTransport.answering(.status(204))
        let webservice = Webservice(transport: stub)

        _ = try await webservice.load(try Resource<Void>(url: baseURL, method: .put(.file(link))))
        let error = try await #require(throws: WebserviceError.self) {
            try await webservice.load(try Resource<Void>(url: baseURL, method: .put(.file(directory))))
        }

        #expect(await stub.requests.map(\.bodyBytes) == [Data("linked".utf8)])
        #expect((error.underlyingError as? URLError)?.code == .fileIsDirectory)
    }

    @Test func downloadsAreNeitherCachedNorServedFromTheCache() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = baseURL.appendingPathComponent("cacheable")
        let stub = StubTransport.answering(.status(200, headers: ["Cache-Control": "max-age=60"], body: Data("v".utf8)))
        let webservice = Webservice(transport: stub, cache: ResponseCache(byteLimit: 1 << 20))

        _ = try await webservice.load(Resource<URL>(url: url, downloadingTo: directory.appendingPathComponent("a")))
        _ = try await webservice.load(Resource<Data>(url: url))
        _ = try await webservice.load(Resource<URL>(url: url, downloadingTo: directory.appendingPathComponent("b")))

        #expect(await stub.requests.count == 3)
        #expect(try files(in: directory) == ["a", "b"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func bodyFromTheCacheReportsItsProgressToo() async throws {
        let stub = StubTransport.answering(.status(200, headers: ["Cache-Control": "max-age=60"], body: Data("v".utf8)))
        let webservice = Webservice(transport: stub, cache: ResponseCache(byteLimit: 1 << 20))
        _ = try await webservice.load(Resource<Data>(url: baseURL))
        let log = ProgressLog()
        var cached = Resource<Data>(url: baseURL)
        cached.progress = log.receiver

        #expect(try await webservice.load(cached) == Data("v".utf8))

        #expect(await stub.requests.count == 1)
        #expect(log.reports == [TransferProgress(isUpload: false, bytes: 1, expectedBytes: 1)])
    }

    @Test func loadInsideAMiddlewareDoesntInheritTheOuterDownload() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stub = StubTransport.answering(.status(200, body: Data("body".utf8)))
        let inner = Notes<Data>()
        let webservice = Webservice(transport: stub, middleware: [LoadingMiddleware(transport: stub, notes: inner)])

        _ = try await webservice.load(Resource<URL>(url: baseURL, downloadingTo: directory.appendingPathComponent("f")))

        #expect(await inner.all == [Data("body".utf8)])
        #expect(try files(in: directory) == ["f"])
    }

    @Test func downloadThatTimedOutLeavesTheDestinationEvenWhenTheTransportAnswersLate() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file")
        try Data("old".utf8).write(to: destination)
        let gate = Gate()
        let ended = Notes<Bool>()
        let webservice = Webservice(transport: StubTransport.gated(by: gate), middleware: [EndMiddleware(notes: ended)])
        var download = Resource<URL>(url: baseURL.appendingPathComponent("file"), downloadingTo: destination)
        download.timeout = 0.05

        let error = try await #require(throws: WebserviceError.self) { try await webservice.load(download) }
        #expect(error.reason.isTimedOut, "\(error)")
        await gate.open("file")  // the transport ignored the cancellation and answers now
        try await eventually("the chain returned") { await !ended.all.isEmpty }

        #expect(try Data(contentsOf: destination) == Data("old".utf8))
        #expect(try files(in: directory) == ["file"])
    }

    @Test func transportCalledDirectlyInAMiddlewareDoesntSeeTheOuterDownload() async throws {
        let spy = TransferSpy()
        let destination = URL(fileURLWithPath: "/tmp/never-written")
        let webservice = Webservice(transport: spy, middleware: [DirectCallMiddleware(transport: spy)])

        _ = try await webservice.load(Resource<URL>(url: baseURL, downloadingTo: destination))

        #expect(await spy.notes.all == [nil, destination], "the middleware's own request, then the download's")
    }

    @Test func downloadThatAMiddlewareFailsAfterItArrivedLeavesTheDestination() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file")
        try Data("old".utf8).write(to: destination)
        let stub = StubTransport.answering(.status(200, body: Data("new".utf8)))
        let webservice = Webservice(transport: stub, middleware: [RejectingMiddleware()])

        await #expect(throws: WebserviceError.self) {
            try await webservice.load(Resource<URL>(url: baseURL, downloadingTo: destination))
        }

        #expect(try Data(contentsOf: destination) == Data("old".utf8))
        #expect(try files(in: directory) == ["file"])
    }

    @Test func progressIsReportedAboutEveryHundredthAndAtTheEnd() {
        var counter = ProgressCounter(isUpload: false, expected: 10_000_000, receiver: { _ in })
        var reported: [Int64] = []
        for _ in 0..<1_000 {
            if let due = counter.add(10_000) { reported.append(due.progress.bytes) }
        }
        if let due = counter.end() { reported.append(due.progress.bytes) }
        #expect(reported.count == 100)
        #expect(reported.last == 10_000_000)
        #expect(counter.end() == nil)

        var nothing = ProgressCounter(isUpload: true, expected: nil, receiver: { _ in })
        #expect(nothing.end() == nil, "a request without a body reports no upload")
    }
}

/// A middleware that loads a plain resource through its own web service before passing the request on, as a token
/// provider does, and notes what it got.
private struct LoadingMiddleware: Middleware {
    let transport: StubTransport
    let notes: Notes<Data>

    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        await notes.append(try await Webservice(transport: transport).load(Resource<Data>(url: baseURL)))
        return try await next(request, context)
    }
}

/// A middleware that notes when the rest of the chain returned (`true`) or threw (`false`).
private struct EndMiddleware: Middleware {
    let notes: Notes<Bool>

    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        do {
            let answer = try await next(request, context)
            await notes.append(true)
            return answer
        } catch {
            await notes.append(false)
            throw error
        }
    }
}

/// A transport that streams transfers itself and notes the destination of each request's transfer: `nil` for a
/// request sent to it directly, which has no load's context.
private struct TransferSpy: WholeTransport {
    let notes = Notes<URL?>()

    func answer(_ request: Request) async throws -> (Data, URLResponse) {
        await notes.append(nil)
        return (Data(), try httpResponse(200))
    }

    func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        await notes.append(context.destination)
        return (Response(statusCode: 200, url: baseURL), ResponseBody(Data()))
    }
}

/// A middleware that sends a request of its own straight to a transport before passing the load's on.
private struct DirectCallMiddleware: Middleware {
    let transport: any Transport

    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        _ = try await transport.data(for: Request(url: baseURL.appendingPathComponent("token")))
        return try await next(request, context)
    }
}

/// A middleware that fails every load once its response has arrived, as one that checks a signature might.
private struct RejectingMiddleware: Middleware {
    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        _ = try await next(request, context)
        throw WebserviceError(.transport(URLError(.badServerResponse)))
    }
}
