import EpisodesService
import Foundation
import ResourceKit
import Testing

extension MemoryHungryTests {
    /// Downloads to files and uploads from files on both transports: the bytes, the progress, the errors, and what is
    /// left on disk when a transfer fails.
    @Suite(.timeLimit(.minutes(2))) struct FileTransferTests {
        private static let mebibyte = 1_048_576

        @Test(arguments: TransportKind.allCases) func downloadSavesTheBodyAtTheDestinationWithItsProgress(
            kind: TransportKind
        ) async throws {
            try await withFileServer { base, directory in
                let destination = directory.appendingPathComponent("large.bin")
                let reports = Shared<[TransferProgress]>([])
                var download = Resource<URL>(url: base / "faults/large?megabytes=1", downloadingTo: destination)
                download.progress = { progress in reports.update { $0.append(progress) } }

                let saved = try await kind.webservice().load(download)

                #expect(saved == destination)
                let expected = Data((0..<Self.mebibyte).map { UInt8($0 % 251) })
                #expect(try Data(contentsOf: destination) == expected)
                #expect(try files(in: directory) == ["large.bin"])
                let progress = reports.value
                #expect(progress.count > 5 && progress.count <= 101, "\(progress.count) reports")
                #expect(progress.allSatisfy { !$0.isUpload && $0.expectedBytes == Int64(expected.count) })
                #expect(progress.map(\.bytes) == progress.map(\.bytes).sorted())
                #expect(progress.last?.bytes == Int64(expected.count))
            }
        }

        @Test(arguments: TransportKind.allCases) func downloadReplacesAFileOnlyWhenTheWholeBodyArrived(
            kind: TransportKind
        ) async throws {
            try await withFileServer { base, directory in
                let destination = directory.appendingPathComponent("kept.json")
                try Data("old".utf8).write(to: destination)
                let failing = Resource<URL>(url: base / "faults/status/404", downloadingTo: destination)

                let error = try await #require(throws: WebserviceError.self) {
                    try await kind.webservice().load(failing)
                }

                #expect(error.response?.statusCode == 404)
                #expect(String(decoding: error.body ?? Data(), as: UTF8.self).contains("status_404"))
                #expect(try Data(contentsOf: destination) == Data("old".utf8))
                _ = try await kind.webservice().load(
                    Resource<URL>(url: base / "faults/large?megabytes=1", downloadingTo: destination))
                #expect(try Data(contentsOf: destination).count == Self.mebibyte)
                #expect(try files(in: directory) == ["kept.json"])
            }
        }

        @Test(arguments: TransportKind.allCases) func cancellingADownloadRemovesItsPartialFile(kind: TransportKind)
            async throws
        {
            try await withFileServer { base, directory in
                let started = AsyncStream.makeStream(of: Void.self)
                var download = Resource<URL>(
                    url: base / "faults/large?megabytes=50&ms=20",
                    downloadingTo: directory.appendingPathComponent("big"))
                download.progress = { _ in started.continuation.yield() }
                let loading = Task { try await kind.webservice().load(download) }
                for await _ in started.stream { break }
                #expect(try files(in: directory).count == 1, "the partial file is there while the body arrives")

                loading.cancel()

                await #expect(throws: CancellationError.self) { try await loading.value }
                try await waitUntil { try files(in: directory).isEmpty }
            }
        }

        @Test(arguments: TransportKind.allCases) func downloadStopsAtTheBodyLimitAndTheTimeout(kind: TransportKind)
            async throws
        {
            try await withFileServer { base, directory in
                var tooLarge = Resource<URL>(
                    url: base / "faults/large?megabytes=5&chunked=1",
                    downloadingTo: directory.appendingPathComponent("a"))
                tooLarge.maxBodySize = Self.mebibyte
                let limited = try await #require(throws: WebserviceError.self) {
                    try await kind.webservice().load(tooLarge)
                }
                #expect(limited.bodyTooLarge == Self.mebibyte)

                var slow = Resource<URL>(
                    url: base / "faults/large?megabytes=50&ms=20", downloadingTo: directory.appendingPathComponent("b"))
                slow.timeout = 0.5
                let timedOut = try await #require(throws: WebserviceError.self) {
                    try await kind.webservice().load(slow)
                }
                #expect(timedOut.timedOut, "\(timedOut)")
                try await waitUntil { try files(in: directory).isEmpty }
            }
        }

        @Test(arguments: TransportKind.contract) func uploadSendsTheFileAsTheBodyWithItsProgress(kind: TransportKind)
            async throws
        {
            try await withFileServer { base, directory in
                let contents = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
                let file = directory.appendingPathComponent("upload.bin")
                try contents.write(to: file)
                let reports = Shared<[TransferProgress]>([])
                var upload = try Resource<UploadReceipt>(
                    url: base / "transfers/upload?checksum=1", method: .put(.file(file)))
                upload.progress = { progress in reports.update { $0.append(progress) } }

                let receipt = try await kind.webservice().load(upload)

                #expect(receipt == UploadReceipt(bytes: contents.count, checksum: UploadReceipt.checksum(of: contents)))
                let sent = reports.value.filter { $0.isUpload }
                #expect(sent.count > 2, "\(sent)")
                #expect(sent.last == TransferProgress(isUpload: true, bytes: 300_000, expectedBytes: 300_000))
            }
        }

        @Test(arguments: TransportKind.allCases) func uploadsProgressEndsBeforeTheResponsesBegins(kind: TransportKind)
            async throws
        {
            try await withFileServer { base, directory in
                let file = directory.appendingPathComponent("upload.bin")
                try Data(count: 300_000).write(to: file)
                let reports = Shared<[TransferProgress]>([])
                var upload = try Resource<UploadReceipt>(
                    url: base / "transfers/upload?padding=1000000", method: .put(.file(file)))
                upload.progress = { progress in reports.update { $0.append(progress) } }

                #expect(try await kind.webservice().load(upload).bytes == 300_000)

                let uploads = reports.value.map(\.isUpload)
                #expect(uploads.contains(false))
                #expect(uploads == uploads.filter { $0 } + uploads.filter { !$0 })
                #expect(reports.value.last { $0.isUpload }?.bytes == 300_000)
            }
        }

        @Test(arguments: TransportKind.allCases) func uploadFollowsARedirectThatKeepsItsBody(kind: TransportKind)
            async throws
        {
            try await withFileServer { base, directory in
                let contents = Data((0..<100_000).map { UInt8($0 % 256) })
                let file = directory.appendingPathComponent("upload.bin")
                try contents.write(to: file)
                let target = "/transfers/upload?checksum=1".addingPercentEncoding(
                    withAllowedCharacters: .alphanumerics)!
                let upload = try Resource<UploadReceipt>(
                    url: base / "faults/redirect?status=307&to=\(target)", method: .post(.file(file)))

                let receipt = try await kind.webservice().load(upload)

                #expect(receipt == UploadReceipt(bytes: contents.count, checksum: UploadReceipt.checksum(of: contents)))
            }
        }

        @Test(arguments: TransportKind.allCases) func uploadRedirectedToAGetSendsNoBody(kind: TransportKind)
            async throws
        {
            try await withFileServer { base, directory in
                let file = directory.appendingPathComponent("upload.bin")
                try Data(count: 100_000).write(to: file)
                let target = "/transfers/upload".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                for status in [303, 302] {
                    let upload = try Resource<UploadReceipt>(
                        url: base / "faults/redirect?status=\(status)&to=\(target)", method: .post(.file(file)))

                    let receipt = try await kind.webservice().load(upload)

                    #expect(receipt == UploadReceipt(bytes: 0, checksum: nil), "\(status)")
                }
            }
        }

        @Test(arguments: TransportKind.allCases) func uploadOfADirectoryFailsBeforeSending(kind: TransportKind)
            async throws
        {
            try await withFileServer { base, directory in
                let upload = try Resource<UploadReceipt>(url: base / "transfers/upload", method: .put(.file(directory)))
                let error = try await #require(throws: WebserviceError.self) {
                    try await kind.webservice().load(upload)
                }
                #expect((error.underlyingError as? URLError)?.code == .fileIsDirectory, "\(error)")
            }
        }

        @Test(arguments: TransportKind.allCases) func uploadOfAMissingFileFailsBeforeSending(kind: TransportKind)
            async throws
        {
            try await withFileServer { base, directory in
                let upload = try Resource<UploadReceipt>(
                    url: base / "transfers/upload", method: .put(.file(directory.appendingPathComponent("missing"))))
                let error = try await #require(throws: WebserviceError.self) {
                    try await kind.webservice().load(upload)
                }
                #expect((error.underlyingError as? URLError)?.code == .fileDoesNotExist, "\(error)")
            }
        }
    }
}

/// Runs `body` with a server that has the fault and file-transfer routes, and a new empty directory that is removed
/// afterwards.
func withFileServer(_ body: (URL, URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("transfers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let server = try await EpisodesServer.start(configure: {
        $0.addFaultRoutes()
        $0.addFileTransferRoutes()
    })
    try await run({ try await body(server.baseURL, directory) }) {
        await server.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a server that has the fault and file-transfer routes.
func withFileServer(_ body: (URL) async throws -> Void) async throws {
    try await withFileServer { base, _ in try await body(base) }
}

/// The names of the files in `directory`, hidden ones included, sorted.
func files(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
}

extension MemoryHungryTests {
    /// A gibibyte downloaded to a file or uploaded from one never sits in memory, with each transport: the peak
    /// resident memory of a child process that does nothing else grows by a small fraction of the body.
    @Suite(.timeLimit(.minutes(3))) struct FileTransferMemoryTests {
        private static let gibibyte = 1 << 30
        /// The most the child's peak may grow, a sixteenth of the body; a transfer held in memory would grow it by
        /// 1 GiB.
        ///
        /// The transport's first use (threads, connection pool, curl or NIO buffers) measured 10 to 20 MB for the
        /// body-limit tests. With `URLSession` on Linux, curl's thread writes each chunk before it reads the next (a
        /// delegate queue that ran on another thread let unwritten chunks pile up to 370 MiB).
        private static let allowance = 64 << 20

        @Test(arguments: TransportKind.contract) func gibibyteDownloadGoesToDiskInBoundedMemory(kind: TransportKind)
            async throws
        {
            let growth = try await peakMemoryGrowth(
                test: "gibibyteDownloadGoesToDiskInBoundedMemory", kind: kind, path: "faults/large?megabytes=1024",
                serve: withFileServer
            ) { url in
                let destination = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
                defer { try? FileManager.default.removeItem(at: destination) }
                _ = try await kind.webservice().load(Resource<URL>(url: url, downloadingTo: destination))
                let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int
                #expect(size == Self.gibibyte)
            }
            if let growth { #expect(growth < Self.allowance, "peak grew \(growth >> 20) MiB") }
        }

        @Test(arguments: TransportKind.allCases) func gibibyteUploadIsReadFromDiskInBoundedMemory(kind: TransportKind)
            async throws
        {
            let growth = try await peakMemoryGrowth(
                test: "gibibyteUploadIsReadFromDiskInBoundedMemory", kind: kind, path: "transfers/upload",
                serve: withFileServer
            ) { url in
                // A sparse file: a gibibyte of zeros that takes no disk space.
                let file = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
                #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
                defer { try? FileManager.default.removeItem(at: file) }
                let handle = try FileHandle(forWritingTo: file)
                try handle.truncate(atOffset: UInt64(Self.gibibyte))
                try handle.close()
                let upload = try Resource<UploadReceipt>(url: url, method: .put(.file(file)))
                let receipt = try await kind.webservice().load(upload)
                #expect(receipt.bytes == Self.gibibyte)
            }
            if let growth { #expect(growth < Self.allowance, "peak grew \(growth >> 20) MiB") }
        }
    }
}
