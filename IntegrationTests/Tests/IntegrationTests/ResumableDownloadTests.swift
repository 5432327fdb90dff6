import EpisodesService
import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

extension MemoryHungryTests {
    /// Downloads whose connection the server cuts part way, resumed on both transports against `/transfers/file`: the
    /// bytes the server sends again, the file's SHA-256 against the served bytes', and the restarts.
    ///
    /// The file has `RESUME_TEST_MIB` mebibytes (16 unless set) and the first load is cut at `RESUME_TEST_CUTS` percent
    /// (comma-separated, 50 unless set): `RESUME_TEST_MIB=1024 RESUME_TEST_CUTS=50,90,99` runs the gibibyte
    /// by hand. Each measurement is printed.
    @Suite(.timeLimit(.minutes(20))) struct ResumableDownloadTests {
        private static let environment = ProcessInfo.processInfo.environment
        private static let size = (environment["RESUME_TEST_MIB"].flatMap { Int($0) } ?? 16) << 20
        private static let cuts = (environment["RESUME_TEST_CUTS"] ?? "50").split(separator: ",").compactMap { Int($0) }
        /// The most bytes a resumed download may make the server send again: one of its 64 KiB writes, lost in flight
        /// when the connection dropped.
        private static let allowance = ServedFile.blockSize

        @Test(arguments: TransportKind.allCases) func downloadCutPartWayResumesOnTheNextLoad(kind: TransportKind)
            async throws
        {
            try await withFileServer { base, directory in
                for cut in Self.cuts {
                    let file = ServedFile(size: Self.size, seed: .random(in: 1...UInt64(Int32.max)))
                    let destination = directory.appendingPathComponent("cut-\(cut).bin")
                    let url = base / "transfers/file?bytes=\(file.size)&seed=\(file.seed)&cut=\(file.size / 100 * cut)"
                    let webservice = kind.webservice()
                    var download = Resource<URL>(url: url, downloadingTo: destination)

                    let failure = try await #require(throws: WebserviceError.self) {
                        try await webservice.load(download)
                    }
                    #expect(failure.urlError?.code == .networkConnectionLost, "\(failure)")
                    let partial = directory.appendingPathComponent(".cut-\(cut).bin.partial")
                    let kept = try #require(
                        try FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int)
                    let reports = Shared<[TransferProgress]>([])
                    download.progress = { progress in reports.update { $0.append(progress) } }
                    _ = try await webservice.load(download)

                    // The bytes the first request wrote that never arrived, lost with the connection; the rest of
                    // what the server sent again, the client asked for again.
                    let lost = file.size / 100 * cut - kept
                    let resent = try await served(file, at: base).bytes - file.size
                    print(
                        "\(kind) cut at \(cut) % of \(file.size >> 20) MiB: kept \(kept) bytes, sent again \(resent), "
                            + "\(lost) of them lost in flight; SHA-256 checked below")
                    #expect(resent - lost <= Self.allowance)
                    #expect(reports.value.first.map { $0.bytes >= Int64(kept) } == true)
                    #expect(
                        reports.value.last
                            == TransferProgress(
                                isUpload: false, bytes: Int64(file.size), expectedBytes: Int64(file.size)))
                    #expect(try await sha256(of: destination) == sha256(of: file))
                    #expect(try files(in: directory) == ["cut-\(cut).bin"])
                    try FileManager.default.removeItem(at: destination)
                }
            }
        }

        @Test(arguments: TransportKind.allCases) func retryPolicyResumesACutDownloadWithinOneLoad(kind: TransportKind)
            async throws
        {
            try await withFileServer { base, directory in
                let file = ServedFile(size: Self.size, seed: .random(in: 1...UInt64(Int32.max)))
                let destination = directory.appendingPathComponent("retried.bin")
                let url = base / "transfers/file?bytes=\(file.size)&seed=\(file.seed)&cut=\(file.size / 2)"
                let sent = Shared<[String]>([])
                let webservice = kind.webservice(
                    middleware: [RetryPolicy(maxAttempts: 2, baseDelay: 0.01)],
                    observer: { event in
                        if case .sent = event.kind { sent.update { $0.append(event.cURLDescription) } }
                    })

                _ = try await webservice.load(Resource<URL>(url: url, downloadingTo: destination))

                let counted = try await served(file, at: base)
                #expect(counted.requests == 2)
                // The offset the retry resumed at, from the `Range` the observer saw.
                let resumed = try #require(sent.value.last?.components(separatedBy: "Range: bytes=").last)
                let kept = try #require(Int(resumed.prefix { $0.isNumber }))
                let lost = file.size / 2 - kept
                print(
                    "\(kind) retried after a cut at 50 %: resumed at \(kept), sent again \(counted.bytes - file.size), "
                        + "\(lost) of them lost in flight")
                #expect(counted.bytes - file.size - lost <= Self.allowance)
                #expect(try await sha256(of: destination) == sha256(of: file))
                #expect(try files(in: directory) == ["retried.bin"])
            }
        }

        @Test(arguments: TransportKind.allCases) func serverThatIgnoresRangeRestartsFromZero(kind: TransportKind)
            async throws
        {
            try await expectRestart(kind: kind, query: "&ignore-range=1")
        }

        @Test(arguments: TransportKind.allCases) func changedValidatorRestartsWithTheNewBytes(kind: TransportKind)
            async throws
        {
            try await expectRestart(kind: kind, version: 1) { base, file in
                _ = try await Webservice().load(
                    Resource<Data>(url: base / "transfers/file/change?seed=\(file.seed)", method: .post(Data())))
            }
        }

        /// Loads a file cut at half way, with `query` added to its URL, runs `between`, and loads it again: the second
        /// load must start from zero, the server sending half the file and then the whole of its `version`, whose
        /// SHA-256 the destination has.
        private func expectRestart(
            kind: TransportKind, query: String = "", version: Int = 0,
            between: (URL, ServedFile) async throws -> Void = { _, _ in }
        ) async throws {
            try await withFileServer { base, directory in
                let file = ServedFile(size: Self.size, seed: .random(in: 1...UInt64(Int32.max)))
                let destination = directory.appendingPathComponent("restarted.bin")
                let url = base / "transfers/file?bytes=\(file.size)&seed=\(file.seed)&cut=\(file.size / 2)\(query)"
                let download = Resource<URL>(url: url, downloadingTo: destination)
                let webservice = kind.webservice()
                await #expect(throws: WebserviceError.self) { try await webservice.load(download) }
                try await between(base, file)

                _ = try await webservice.load(download)

                #expect(try await served(file, at: base).bytes == file.size / 2 + file.size)
                let expected = ServedFile(size: file.size, seed: file.seed, version: version)
                #expect(try await sha256(of: destination) == sha256(of: expected))
                #expect(try files(in: directory) == ["restarted.bin"])
            }
        }

        /// What the server sent for `file`.
        private func served(_ file: ServedFile, at base: URL) async throws -> ServedBytes {
            try await Webservice().load(Resource<ServedBytes>(get: base / "transfers/file/sent?seed=\(file.seed)"))
        }

        /// The SHA-256 of the file at `url`, by `sha256sum`.
        private func sha256(of url: URL) async throws -> String {
            let result = try await runProgram(["sha256sum", url.path])
            try #require(result.succeeded, "\(result.output)")
            return String(result.output.prefix(64))
        }

        /// The SHA-256 of the bytes the server serves for `file`, streamed to `sha256sum` block by block.
        private func sha256(of file: ServedFile) async throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sha256sum"]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            return try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    do {
                        for index in 0..<file.blocks {
                            try input.fileHandleForWriting.write(contentsOf: file.block(index))
                        }
                        try input.fileHandleForWriting.close()
                        let printed = output.fileHandleForReading.readDataToEndOfFile()
                        process.waitUntilExit()
                        continuation.resume(returning: String(decoding: printed.prefix(64), as: UTF8.self))
                    } catch {
                        process.terminate()
                        continuation.resume(throwing: error)
                    }
                }
            }
        }
    }
}
