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

/// `Content-Range` as the server sends it: a range of bytes within the whole length, or nothing.
@Suite struct ContentRangeTests {
    @Test func readsARangeWithItsTotalOrWithout() throws {
        let range = try #require(ContentRange("bytes 6-10/11"))
        #expect([range.first, range.last, range.total] == [6, 10, 11])
        let open = try #require(ContentRange(" BYTES 0-0/* "))
        #expect([open.first, open.last, open.total] == [0, 0, nil])
    }

    @Test(arguments: [
        "", "bytes ", "bytes 6-10", "items 6-10/11", "bytes */11", "bytes 10-6/11", "bytes 6-11/11", "bytes -6-10/11",
        "bytes 6 - 10/11", "bytes 6-10/1x", "bytes 6-10/11/12", "bytes 0-1/9223372036854775807",
        "bytes 1234567890123456789-1234567890123456789/*", "bytes 0-99999999999999999999999999/*", "bytes\u{0}0-1/2",
        "BYTE\u{13} 0-1/2",
    ])
    func refusesAnythingElse(value: String) {
        #expect(ContentRange(value) == nil)
    }
}

/// The partial file a `GET` download's attempt leaves when its body breaks off, and its record.
@Suite struct PartialFileTests {
    private let url = "https://api.example.com/video"

    /// What `Resuming` hands the transport for an attempt of a download of ``url`` to `destination`.
    private func transfer(to destination: URL) throws -> Transfer {
        var transfer = Transfer(destination: destination)
        transfer.resume = Resume(url: url)
        return transfer
    }

    /// A body of `head` that breaks off with `error` after `hello `.
    private func breakOff(_ head: Response, to destination: URL, with error: any Error) throws {
        var body = try ArrivingBody(
            status: head.statusCode, expectedLength: nil, maxBodySize: nil, for: try transfer(to: destination),
            head: head)
        _ = try body.append(.data(Data("hello ".utf8)))
        body.breakOff(error)
    }

    @Test func bodyThatBreaksOffKeepsItsPartialFileBesideARecordOfItsResponse() throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("f")
        let head = Response(statusCode: 200, headers: ["ETag": #""v1""#, "Content-Length": "11"])

        try breakOff(head, to: destination, with: URLError(.networkConnectionLost))

        #expect(try files(in: directory) == [".f.partial", ".f.resume"])
        #expect(try Data(contentsOf: directory.appendingPathComponent(".f.partial")) == Data("hello ".utf8))
        let record = ResumeRecord.read(at: directory.appendingPathComponent(".f.resume"))
        #expect(record == ResumeRecord(url: url, validator: #""v1""#, total: 11))
        #expect(Resume.found(for: destination, url: url) == Resume(url: url, offset: 6, validator: #""v1""#))
        #expect(Resume.found(for: destination, url: url + "?other") == nil)
    }

    @Test(arguments: [
        WebserviceError(.bodyTooLarge(limit: 6)) as any Error, URLError(.cannotWriteToFile) as any Error,
        // A malformed body as its chunks' reader gets it: the transport's error, as `Sending` reports it.
        WebserviceError(.transport(URLError(.badServerResponse))) as any Error,
    ])
    func bodyThatFailsByItsOwnFaultLeavesNothing(error: any Error) throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let head = Response(statusCode: 200, headers: ["ETag": #""v1""#])

        try breakOff(head, to: directory.appendingPathComponent("f"), with: error)

        #expect(try files(in: directory).isEmpty)
    }

    /// A file made under a umask stricter than `0600` is still the user's own and private, and is used.
    ///
    /// In a child process, as the umask is the whole process's.
    @Test func aFileMadeUnderAStrictUmaskIsStillUsed() async throws {
        guard let child = try await ChildProcess.run("umask", { try Self.filesMadeUnderAStrictUmask() }) else { return }
        #expect(child.exitedNormally, "\(child.output.suffix(2_000))")
        #expect(child.result == "made resumable 600")
    }

    /// Whether a download's temporary file and its resumable partial file are made under the umask `0277`, and the
    /// latter's permission bits.
    private static func filesMadeUnderAStrictUmask() throws -> String {
        umask(0o277)
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("f")
        let made = (try? PartialFile(for: destination)) == nil ? "refused" : "made"
        let resumable = PartialFile(resumableFor: destination) == nil ? "not resumable" : "resumable"
        let mode = ownership(of: directory.appendingPathComponent(".f.partial")).map { String($0.mode, radix: 8) }
        return "\(made) \(resumable) \(mode ?? "none")"
    }

    @Test(arguments: [
        [:], ["ETag": #"W/"v1""#], ["ETag": #""v1""#, "Content-Encoding": "gzip"], ["ETag": "unquoted"],
        ["Last-Modified": "Tue, 15 Nov 1994 08:12:31 GMT\r\nX-Injected: 1"],
    ])
    func responseWithoutAStrongValidatorOrWithAContentCodingLeavesNothing(headers: [String: String]) throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let head = Response(statusCode: 200, headers: headers)
        try breakOff(head, to: directory.appendingPathComponent("f"), with: URLError(.networkConnectionLost))

        #expect(try files(in: directory).isEmpty)
    }

    @Test func weakETagGivesWayToLastModified() {
        let date = "Tue, 15 Nov 1994 08:12:31 GMT"
        let sent = "Tue, 15 Nov 1994 08:12:32 GMT"
        #expect(
            Resume.validator(
                of: Response(statusCode: 200, headers: ["ETag": #"W/"v1""#, "Last-Modified": date, "Date": sent]))
                == date)
        #expect(
            Resume.validator(of: Response(statusCode: 200, headers: ["ETag": #""v1""#, "Last-Modified": date]))
                == #""v1""#)
    }

    /// RFC 9110, 8.8.2.2: a `Last-Modified` that the response's `Date` doesn't follow by a second or more may name two
    /// versions of the file, so it can't guard a `Range`.
    @Test(arguments: [nil, "Tue, 15 Nov 1994 08:12:31 GMT", "Tue, 15 Nov 1994 08:12:30 GMT", "not a date"])
    func lastModifiedIsAValidatorOnlyASecondOrMoreBeforeTheResponsesDate(date: String?) {
        var headers = ["Last-Modified": "Tue, 15 Nov 1994 08:12:31 GMT"]
        headers["Date"] = date
        #expect(Resume.validator(of: Response(statusCode: 200, headers: headers)) == nil)
    }

    @Test func bodyThatBreaksOffBeforeItsFirstByteLeavesNothing() throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let head = Response(statusCode: 200, headers: ["ETag": #""v1""#])
        var body = try ArrivingBody(
            status: 200, expectedLength: nil, maxBodySize: nil,
            for: try transfer(to: directory.appendingPathComponent("f")), head: head)

        body.breakOff(URLError(.networkConnectionLost))

        #expect(try files(in: directory).isEmpty)
    }

    @Test func secondLoadOfTheSameDestinationWritesAFileOfItsOwn() throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("f")
        let held = try #require(PartialFile(resumableFor: destination))
        #expect(PartialFile(resumableFor: destination) == nil, "the lock is exclusive")

        var body = try ArrivingBody(
            status: 200, expectedLength: nil, maxBodySize: nil, for: try transfer(to: destination),
            head: Response(statusCode: 200, headers: ["ETag": #""v1""#]))
        _ = try body.append(.data(Data("hello".utf8)))

        let names = try files(in: directory)
        #expect(names.count == 2 && names.contains(".f.partial") && names.contains { $0.hasSuffix(".download") })
        #expect(held.size == 0)
        body.breakOff(URLError(.networkConnectionLost))
        held.remove()
        #expect(try files(in: directory).isEmpty)
    }
}

/// A `GET` download that resumes its partial file through the pipeline: what it sends, what it does with each answer,
/// and what it leaves on disk.
@Suite struct ResumingTests {
    static let text = "hello world"
    private let url = baseURL.appendingPathComponent("video")

    /// `text` whole, with `etag`, its body breaking off after `hello ` when `breaks`.
    private static func whole(_ text: String = text, etag: String = #""v1""#, breaks: Bool = false) -> Downloads.Answer
    {
        Downloads.Answer(
            status: 200, headers: ["ETag": etag, "Content-Length": "\(text.utf8.count)"],
            chunks: breaks ? [String(text.prefix(6))] : [String(text.prefix(6)), String(text.dropFirst(6))],
            breaks: breaks)
    }

    /// The rest of ``text`` from the offset `request` asks for, as a server that honours `Range` and `If-Range`.
    private static func rest(for request: Request) -> Downloads.Answer {
        guard let range = request.value(forHTTPHeaderField: "Range"),
            request.value(forHTTPHeaderField: "If-Range") == #""v1""#,
            let start = Int(range.dropFirst("bytes=".count).dropLast())
        else { return whole() }
        let count = text.utf8.count
        return Downloads.Answer(
            status: 206,
            headers: ["ETag": #""v1""#, "Content-Range": "bytes \(start)-\(count - 1)/\(count)"],
            chunks: [String(text.dropFirst(start))])
    }

    /// A server that breaks the first body off after `hello `, then honours `Range` and `If-Range` (``rest(for:)``).
    static func resumable() -> Downloads {
        Downloads { request, number in number == 1 ? whole(breaks: true) : rest(for: request) }
    }

    /// A load of a download of ``url`` to `destination` with `webservice`, which fails as its body breaks off.
    private func breakOff(_ webservice: Webservice, to destination: URL) async {
        await #expect(throws: WebserviceError.self) {
            try await webservice.load(Resource<URL>(url: url, downloadingTo: destination))
        }
    }

    /// Loads a download of ``url`` into a new directory's `f` with `webservice` twice, the first load failing, and
    /// returns the second's file and the directory's names after each.
    private func loadTwice(_ downloads: Downloads, _ webservice: Webservice? = nil, progress: ProgressLog? = nil)
        async throws -> (String, [String], [String])
    {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let webservice = webservice ?? Webservice(transport: downloads)
        var download = Resource<URL>(url: url, downloadingTo: directory.appendingPathComponent("f"))
        let failure = try await #require(throws: WebserviceError.self) { try await webservice.load(download) }
        #expect((failure.underlyingError as? URLError)?.code == .networkConnectionLost)
        let between = try files(in: directory)
        download.progress = progress?.receiver
        let saved = try await webservice.load(download)
        return (String(decoding: try Data(contentsOf: saved), as: UTF8.self), between, try files(in: directory))
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func nextLoadAsksForTheRestAndAppendsItWithProgressFromTheOffset() async throws {
        let downloads = Self.resumable()
        let events = EventLog()
        let progress = ProgressLog()

        let (text, between, after) = try await loadTwice(
            downloads, Webservice(transport: downloads, observer: events.observer), progress: progress)

        #expect(text == Self.text)
        #expect(between == [".f.partial", ".f.resume"])
        #expect(after == ["f"])
        let second = try #require(await downloads.requests.all.last)
        #expect(second.value(forHTTPHeaderField: "Range") == "bytes=6-")
        #expect(second.value(forHTTPHeaderField: "If-Range") == #""v1""#)
        #expect(second.value(forHTTPHeaderField: "Accept-Encoding") == "identity")
        let sent = events.events.filter { if case .sent = $0.kind { true } else { false } }
        #expect(sent.last?.cURLDescription.contains("Range: bytes=6-") == true)
        #expect(progress.reports == [TransferProgress(isUpload: false, bytes: 11, expectedBytes: 11)])
    }

    @Test func serverThatIgnoresTheRangeRestartsFromZero() async throws {
        let downloads = Downloads { _, number in Self.whole(breaks: number == 1) }

        let (text, _, after) = try await loadTwice(downloads)

        #expect(text == Self.text)
        #expect(after == ["f"])
        #expect(await downloads.requests.all.last?.value(forHTTPHeaderField: "Range") == "bytes=6-")
    }

    @Test func changedValidatorRestartsWithTheNewBody() async throws {
        // As a server answers an `If-Range` that no longer matches: the whole new representation.
        let downloads = Downloads { _, number in
            number == 1 ? Self.whole(breaks: true) : Self.whole("HELLO WORLD", etag: #""v2""#)
        }

        let (text, _, after) = try await loadTwice(downloads)

        #expect(text == "HELLO WORLD")
        #expect(after == ["f"])
    }

    @Test(arguments: [
        Downloads.Answer(status: 416, headers: ["Content-Range": "bytes */11"]),
        Downloads.Answer(status: 206, headers: ["Content-Range": "bytes 0-10/11"], chunks: ["hello world"]),
        Downloads.Answer(
            status: 206, headers: ["Content-Range": "bytes 6-10/11", "ETag": #""v2""#], chunks: ["WORLD"]),
        Downloads.Answer(
            status: 206, headers: ["Content-Range": "bytes 6-10/11", "Content-Encoding": "gzip"], chunks: ["world"]),
        Downloads.Answer(status: 206, headers: ["Content-Range": "bytes 6-10/99999999999999999999"], chunks: ["world"]),
        Downloads.Answer(status: 206, headers: ["Content-Range": "bytes 6-7/11"], chunks: ["wo"]),
        Downloads.Answer(status: 206, headers: ["Content-Range": "bytes 6-10/*"], chunks: ["world"]),
    ])
    func answerThatCantResumeDropsThePartialFileAndSendsTheRequestAgain(refusal: Downloads.Answer) async throws {
        let downloads = Downloads { _, number in
            switch number {
            case 1: Self.whole(breaks: true)
            case 2: refusal
            default: Self.whole()
            }
        }

        let (text, _, after) = try await loadTwice(downloads)

        #expect(text == Self.text)
        #expect(after == ["f"])
        let sent = await downloads.requests.all
        #expect(sent.map { $0.value(forHTTPHeaderField: "Range") } == [nil, "bytes=6-", nil])
        #expect(sent.last?.value(forHTTPHeaderField: "If-Range") == nil)
    }

    /// Loads a download of ``url`` into a new directory's `f` once, with a `RetryPolicy` that doesn't wait, and
    /// returns the file and the directory's names after.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func loadRetrying(_ downloads: Downloads) async throws -> (String, [String]) {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let webservice = Webservice(transport: downloads, middleware: [RetryPolicy(clock: VirtualClock())])
        let saved = try await webservice.load(
            Resource<URL>(url: url, downloadingTo: directory.appendingPathComponent("f")))
        return (String(decoding: try Data(contentsOf: saved), as: UTF8.self), try files(in: directory))
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func retryPolicyResumesABrokenDownloadWithinOneLoad() async throws {
        let downloads = Self.resumable()

        let (text, after) = try await loadRetrying(downloads)

        #expect(text == Self.text)
        #expect(await downloads.requests.all.map { $0.value(forHTTPHeaderField: "Range") } == [nil, "bytes=6-"])
        #expect(after == ["f"])
    }

    @Test func weakETagIsNeverSentAsIfRange() async throws {
        let date = "Tue, 15 Nov 1994 08:12:31 GMT"
        let downloads = Downloads { request, number in
            var answer = Self.whole(etag: #"W/"v1""#, breaks: number == 1)
            answer.headers["Last-Modified"] = date
            answer.headers["Date"] = "Tue, 15 Nov 1994 09:00:00 GMT"
            return answer
        }

        _ = try await loadTwice(downloads)

        #expect(await downloads.requests.all.last?.value(forHTTPHeaderField: "If-Range") == date)
    }

    @Test func partialFileOfAnotherURLIsNotResumed() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("f")
        let downloads = Downloads { _, number in Self.whole(breaks: number == 1) }
        let webservice = Webservice(transport: downloads)
        await breakOff(webservice, to: destination)

        _ = try await webservice.load(Resource<URL>(url: baseURL, downloadingTo: destination))

        #expect(await downloads.requests.all.last?.value(forHTTPHeaderField: "Range") == nil)
        #expect(try Data(contentsOf: destination) == Data(Self.text.utf8))
        #expect(try files(in: directory) == ["f"])
    }

    @Test func loadThatFindsThePartialFileHeldWritesAFileOfItsOwn() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("f")
        let downloads = Self.resumable()
        let webservice = Webservice(transport: downloads)
        await breakOff(webservice, to: destination)
        let held = try #require(PartialFile(resumableFor: destination), "as another load of the destination holds it")

        _ = try await webservice.load(Resource<URL>(url: url, downloadingTo: destination))

        #expect(try Data(contentsOf: destination) == Data(Self.text.utf8))
        #expect(await downloads.requests.all.map { $0.value(forHTTPHeaderField: "Range") } == [nil, "bytes=6-", nil])
        #expect(held.size == 6, "the held file is left as it was")
        held.remove()
        #expect(try files(in: directory) == ["f"])
    }

    @Test(arguments: [
        Downloads.Answer(
            status: 206, headers: ["ETag": #""v1""#, "Content-Range": "bytes 6-10/11"],
            chunks: ["world", "<script>evil</script>"]),
        Downloads.Answer(status: 200, headers: ["ETag": #""v1""#, "Content-Length": "5"], chunks: ["hello world"]),
    ])
    func bodyLongerThanItAnnouncedFailsTheLoadAndLeavesNothing(overrun: Downloads.Answer) async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let downloads = Downloads { _, number in number == 1 ? Self.whole(breaks: true) : overrun }
        let webservice = Webservice(transport: downloads)
        let download = Resource<URL>(url: url, downloadingTo: directory.appendingPathComponent("f"))
        await #expect(throws: WebserviceError.self) { try await webservice.load(download) }

        let failure = try await #require(throws: WebserviceError.self) { try await webservice.load(download) }

        #expect((failure.underlyingError as? URLError)?.code == .badServerResponse)
        #expect(try files(in: directory).isEmpty)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func bodyThatEndsShortOfItsLengthIsResumedByTheNextAttempt() async throws {
        let downloads = Downloads { request, number in
            switch number {
            case 1:
                Downloads.Answer(status: 200, headers: ["ETag": #""v1""#, "Content-Length": "11"], chunks: ["hello "])
            case 2:
                Downloads.Answer(
                    status: 206, headers: ["ETag": #""v1""#, "Content-Range": "bytes 6-10/11"], chunks: ["wor"])
            default: Self.rest(for: request)
            }
        }

        let (text, after) = try await loadRetrying(downloads)

        #expect(text == Self.text)
        let ranges = await downloads.requests.all.map { $0.value(forHTTPHeaderField: "Range") }
        #expect(ranges == [nil, "bytes=6-", "bytes=9-"])
        #expect(after == ["f"])
    }

    @Test func resumedResponseReachesTheMiddlewareAsTheWholeFile() async throws {
        let downloads = Self.resumable()
        let seen = SeenResponses()

        _ = try await loadTwice(downloads, Webservice(transport: downloads, middleware: [seen]))

        let response = try #require(await seen.responses.all.last)
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Length") == "11")
        #expect(response.value(forHTTPHeaderField: "Content-Range") == nil)
    }

    @Test func partialContentToADownloadThatAskedForNoRangeIsAnErrorWithTheResponse() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let downloads = Downloads { _, _ in
            Downloads.Answer(
                status: 206, headers: ["Content-Range": "bytes 100-104/1000", "Content-Length": "5"], chunks: ["chunk"])
        }

        let failure = try await #require(throws: WebserviceError.self) {
            try await Webservice(transport: downloads).load(
                Resource<URL>(url: url, downloadingTo: directory.appendingPathComponent("f")))
        }

        #expect(failure.statusCode == 206)
        #expect(failure.body == Data("chunk".utf8))
        #expect(try files(in: directory).isEmpty)
    }

    @Test func recordHoldsNoPartOfTheURL() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = try #require(URL(string: "https://user:hunter2@api.example.com/video?access_token=SECRET123"))
        let downloads = Self.resumable()
        let webservice = Webservice(transport: downloads)
        let download = Resource<URL>(url: secret, downloadingTo: directory.appendingPathComponent("f"))
        await #expect(throws: WebserviceError.self) { try await webservice.load(download) }

        let record = String(
            decoding: try Data(contentsOf: directory.appendingPathComponent(".f.resume")), as: UTF8.self)
        for part in ["user", "hunter2", "api.example.com", "video", "access_token", "SECRET123"] {
            #expect(!record.contains(part), "\(record)")
        }
        _ = try await webservice.load(download)
        #expect(await downloads.requests.all.last?.value(forHTTPHeaderField: "Range") == "bytes=6-")
    }

    @Test func recordWhoseValidatorCantBeSentIsNotResumed() async throws {
        let downloads = Self.resumable()
        let tampering = TamperingRecord(validator: "\"v1\"\r\nX-Injected: yes")

        let (text, _, after) = try await loadTwice(downloads, Webservice(transport: downloads, middleware: [tampering]))

        #expect(text == Self.text)
        #expect(after == ["f"])
        let second = try #require(await downloads.requests.all.last)
        #expect(second.value(forHTTPHeaderField: "Range") == nil)
        #expect(second.value(forHTTPHeaderField: "If-Range") == nil)
    }

    @Test func partialFileWithAnotherLinkIsNeitherResumedNorWritten() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("f")
        let downloads = Self.resumable()
        let webservice = Webservice(transport: downloads)
        await breakOff(webservice, to: destination)
        let partial = directory.appendingPathComponent(".f.partial")
        let other = directory.appendingPathComponent("other")
        try FileManager.default.moveItem(at: partial, to: other)
        try FileManager.default.linkItem(at: other, to: partial)

        _ = try await webservice.load(Resource<URL>(url: url, downloadingTo: destination))

        #expect(await downloads.requests.all.last?.value(forHTTPHeaderField: "Range") == nil)
        #expect(try Data(contentsOf: destination) == Data(Self.text.utf8))
        #expect(try Data(contentsOf: other) == Data("hello ".utf8))
    }

    @Test func responseWithoutAValidatorRemovesAnotherURLsPartialFile() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("f")
        let downloads = Downloads { _, number in
            number == 1 ? Self.whole(breaks: true) : Downloads.Answer(chunks: [Self.text])
        }
        let webservice = Webservice(transport: downloads)
        await breakOff(webservice, to: destination)

        _ = try await webservice.load(Resource<URL>(url: baseURL, downloadingTo: destination))

        #expect(try files(in: directory) == ["f"])
    }

    @Test func downloadThatIsntAGetIsNotResumed() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let downloads = Downloads { _, _ in Self.whole(breaks: true) }
        let download = Resource<URL>(
            url: url, method: .post(Data()), downloadingTo: directory.appendingPathComponent("f"))

        await #expect(throws: WebserviceError.self) { try await Webservice(transport: downloads).load(download) }

        #expect(try files(in: directory).isEmpty)
    }
}

/// A download's partial file and record in a directory other local users can write: only the user's own, private
/// files resume, and nothing at their names holds the download.
@Suite struct PlantedPartialFileTests {
    private static let text = ResumingTests.text
    private let url = baseURL.appendingPathComponent("video")

    /// Who owns the planted files, and their permission bits: the user's own files open to others, and, where the
    /// test may give a file away (as root), another user's.
    static let planted: [PlantedFile] =
        [PlantedFile(owner: geteuid(), mode: 0o666)]
        + (geteuid() == 0
            ? [PlantedFile(owner: 65_534, mode: 0o600), PlantedFile(owner: 65_534, mode: 0o666)] : [])

    /// An owner and permission bits for a planted file.
    struct PlantedFile: Sendable, CustomTestStringConvertible {
        var owner: uid_t
        var mode: mode_t

        var testDescription: String { "uid \(owner), mode \(String(mode, radix: 8))" }
    }

    @Test(arguments: planted)
    func partialFileOfAnotherOwnerOrModeIsNeitherResumedNorBecomesTheDestination(_ plant: PlantedFile) async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("f")
        let downloads = ResumingTests.resumable()
        let webservice = Webservice(transport: downloads)
        let download = Resource<URL>(url: url, downloadingTo: destination)
        await #expect(throws: WebserviceError.self) { try await webservice.load(download) }
        // As another user would leave them: their bytes in a partial file with a record that fits it.
        let partial = directory.appendingPathComponent(".f.partial")
        try Data("EVIL! ".utf8).write(to: partial)
        for name in [".f.partial", ".f.resume"] {
            let path = directory.appendingPathComponent(name).path
            #expect(chown(path, plant.owner, plant.owner) == 0 && chmod(path, plant.mode) == 0)
        }
        let plantedInode = try #require(ownership(of: partial)).inode
        // Held open, the planted file's inode isn't freed, and so not given to a new file, while the load runs.
        let held = open(partial.path, O_RDONLY)
        defer { close(held) }

        let saved = try await webservice.load(download)

        #expect(try Data(contentsOf: saved) == Data(Self.text.utf8))
        #expect(await downloads.requests.all.map { $0.value(forHTTPHeaderField: "Range") } == [nil, nil])
        let file = try #require(ownership(of: destination))
        #expect(file.owner == geteuid())
        #expect(file.mode == 0o600)
        #expect(file.inode != plantedInode)
        #expect(try files(in: directory) == ["f"])
    }

    @Test func recordForgedFromTheURLAloneIsNotResumed() async throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("f")
        let downloads = ResumingTests.resumable()
        let webservice = Webservice(transport: downloads)
        let download = Resource<URL>(url: url, downloadingTo: destination)
        await #expect(throws: WebserviceError.self) { try await webservice.load(download) }
        // What anyone who knows the URL can compute: a record of this format tagged without the user's secret, in a
        // file of the user's, private to them.
        let forged = ResumeRecord(url: url.absoluteString, validator: #""v1""#, total: 11, secret: [])
        let record = directory.appendingPathComponent(".f.resume")
        try JSONEncoder().encode(forged).write(to: record)
        #expect(chmod(record.path, 0o600) == 0)

        _ = try await webservice.load(download)

        #expect(try Data(contentsOf: destination) == Data(Self.text.utf8))
        #expect(await downloads.requests.all.map { $0.value(forHTTPHeaderField: "Range") } == [nil, nil])
    }

    @Test func recordTaggedWithAnotherSecretIsNotResumed() {
        let other = [UInt8](repeating: 7, count: 32)
        let record = ResumeRecord(url: url.absoluteString, validator: #""v1""#, total: 11, secret: other)
        #expect(!record.isFor(url.absoluteString))
        #expect(record.isFor(url.absoluteString, secret: other))
        #expect(!record.isFor(url.absoluteString + "?other", secret: other))
        #expect(ResumeRecord(url: url.absoluteString, validator: #""v1""#, total: 11).isFor(url.absoluteString))
    }

    /// A FIFO at the record's or the partial file's name doesn't hold the download.
    ///
    /// Opened without `O_NONBLOCK`, it would hold it, and the cooperative thread it runs on, until something writes to
    /// it: in a child process, whose watchdog ends such a hang.
    @Test(arguments: [".f.resume", ".f.partial"])
    func fifoAtTheNameOfTheRecordOrThePartialFileDoesNotHoldTheDownload(name: String) async throws {
        guard let child = try await ChildProcess.run(name, { try await Self.download(besideAFIFONamed: name) }) else {
            return
        }
        #expect(child.exitedNormally, "\(child.output.suffix(2_000))")
        #expect(child.result == "hello world; f", "\(child.output.suffix(2_000))")
    }

    /// Downloads ``text`` to `f` in a new directory where a FIFO is at `name`; returns the file's text and the
    /// directory's names.
    private static func download(besideAFIFONamed name: String) async throws -> String {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard mkfifo(directory.appendingPathComponent(name).path, 0o600) == 0 else { return "mkfifo failed" }
        let downloads = Downloads { _, _ in
            Downloads.Answer(status: 200, headers: ["ETag": #""v1""#], chunks: [text])
        }
        let download = Resource<URL>(
            url: baseURL.appendingPathComponent("video"), downloadingTo: directory.appendingPathComponent("f"))
        let saved = try await Webservice(transport: downloads).load(download)
        let body = String(decoding: try Data(contentsOf: saved), as: UTF8.self)
        return "\(body); \(try files(in: directory).joined(separator: ", "))"
    }
}

/// A middleware that keeps every response it passes on.
private struct SeenResponses: Middleware {
    /// The responses, in order.
    let responses = Notes<Response>()

    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        let response = try await next(request, context)
        await responses.append(response)
        return response
    }
}

/// A middleware that, before each attempt of a download, rewrites the validator in its partial file's record, as
/// someone who can write the directory could.
private struct TamperingRecord: Middleware {
    /// The validator written.
    let validator: String

    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        if let destination = context.destination {
            let (_, location) = PartialFile.resumableNames(
                of: destination, in: destination.deletingLastPathComponent())
            if var record = ResumeRecord.read(at: location) {
                record.validator = validator
                try JSONEncoder().encode(record).write(to: location)
            }
        }
        return try await next(request, context)
    }
}

/// A server of downloads scripted request by request: each answer is a status, header fields and the body's chunks,
/// after which the body ends or breaks off with `URLError(.networkConnectionLost)`.
struct Downloads: WholeTransport {
    /// One answer.
    struct Answer: Sendable {
        var status = 200
        var headers: [String: String] = [:]
        var chunks: [String] = []
        var breaks = false
    }

    /// The requests it received, in order.
    let requests = Notes<Request>()
    /// The answer to a request, given its number from 1.
    let answer: @Sendable (Request, Int) -> Answer

    func answer(_ request: Request) async throws -> (Data, URLResponse) {
        throw URLError(.unsupportedURL)
    }

    func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        await requests.append(request)
        let answer = answer(request, await requests.all.count)
        let (chunks, writer) = AsyncThrowingStream.makeStream(of: Data.self)
        for chunk in answer.chunks { writer.yield(Data(chunk.utf8)) }
        writer.finish(throwing: answer.breaks ? URLError(.networkConnectionLost) : nil)
        return (Response(statusCode: answer.status, headers: answer.headers, url: request.url), ResponseBody(chunks))
    }
}
