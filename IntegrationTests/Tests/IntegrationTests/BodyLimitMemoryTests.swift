import Foundation
import ResourceKit
import Testing

extension MemoryHungryTests {
    /// A resource's `maxBodySize` bounds the memory a load takes, also when the body is a gzip bomb or never ends,
    /// with each transport.
    ///
    /// Each test measures in a child process (this test binary, filtered to the test, with `MEMORY_PROBE` set), so
    /// that no other test's allocations show in the peak: the child loads, then prints how far its peak resident
    /// memory (`VmHWM`) rose above what was resident before the load.
    @Suite(.timeLimit(.minutes(2))) struct BodyLimitMemoryTests {
        private static let megabyte = 1_048_576
        /// What the child may add beyond a multiple of the limit whatever the body: the transport's first use
        /// (threads, connection pool, curl or NIO buffers), measured at 10 to 20 MB.
        private static let allowance = 32 * megabyte

        @Test(arguments: TransportKind.allCases) func gzipBombStopsAtTheLimitInBoundedMemory(kind: TransportKind)
            async throws
        {
            // About 1 MB on the wire that inflates to 1 000 MiB.
            let limit = 10 * Self.megabyte
            let growth = try await peakGrowth(
                test: "gzipBombStopsAtTheLimitInBoundedMemory", kind: kind,
                path: "faults/gzip-bomb?megabytes=1000", limit: limit)
            #expect(growth < 5 * limit + Self.allowance, "peak grew \(growth / Self.megabyte) MB")
        }

        @Test(arguments: TransportKind.allCases) func longChunkedBodyStopsAtTheLimitInBoundedMemory(kind: TransportKind)
            async throws
        {
            // 300 MB without a Content-Length, at loopback speed.
            let limit = Self.megabyte
            let growth = try await peakGrowth(
                test: "longChunkedBodyStopsAtTheLimitInBoundedMemory", kind: kind,
                path: "faults/large?megabytes=300&chunked=1", limit: limit)
            #expect(growth < 5 * limit + Self.allowance, "peak grew \(growth / Self.megabyte) MB")
        }

        /// How far a child process's peak memory rose while it loaded `path` with a limit of `limit` bytes.
        ///
        /// In the parent, runs the test `test` for `kind` in a child process against a server. In the child
        /// (`MEMORY_PROBE` set), does the load, prints that figure and returns 0.
        private func peakGrowth(test: String, kind: TransportKind, path: String, limit: Int) async throws -> Int {
            if let probe = ProcessInfo.processInfo.environment["MEMORY_PROBE"] {
                let fields = probe.split(separator: " ").map(String.init)
                guard fields.count == 2, fields[0] == kind.rawValue, let url = URL(string: fields[1]) else { return 0 }
                var resource = bytes(url)
                resource.maxBodySize = limit
                let before = try #require(processMemory("VmRSS"))
                let error = await #expect(throws: WebserviceError.self) {
                    try await kind.webservice().load(resource)
                }
                let peak = try #require(processMemory("VmHWM"))
                print("memory-probe growth=\(peak - before) before=\(before) peak=\(peak)")
                #expect(error?.bodyTooLarge == limit, "\(String(describing: error))")
                return 0
            }
            var output = ""
            try await withServer { base in
                let child = try await runTestsInChild(
                    filter: test, environment: ["MEMORY_PROBE": "\(kind) \(base / path)"])
                #expect(child.succeeded, "the child failed:\n\(child.output)")
                output = child.output
            }
            let line = output.split(separator: "\n").first { $0.hasPrefix("memory-probe ") }
            let growth = line?.split(separator: " ").first { $0.hasPrefix("growth=") }?.dropFirst("growth=".count)
            let figure = try #require(growth.flatMap { Int($0) }, "no figure from the child:\n\(output)")
            print("\(test)(\(kind)): peak resident memory grew \(figure / 1024) KiB")  // the figure for the notes
            return figure
        }
    }
}
