import Foundation
import ResourceKit
import Testing

extension MemoryHungryTests {
    /// A resource's `maxBodySize` bounds the memory a load takes, also when the body is a gzip bomb or never ends,
    /// with each transport.
    ///
    /// Each test measures in a child process: see `peakMemoryGrowth(test:kind:path:serve:work:)`.
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

        /// How far a child process's peak memory rose while it loaded `path` with a limit of `limit` bytes, which
        /// must fail with `bodyTooLarge`; `0` in the child.
        private func peakGrowth(test: String, kind: TransportKind, path: String, limit: Int) async throws -> Int {
            try await peakMemoryGrowth(test: test, kind: kind, path: path, serve: withServer) { url in
                var resource = bytes(url)
                resource.maxBodySize = limit
                let error = await #expect(throws: WebserviceError.self) {
                    try await kind.webservice().load(resource)
                }
                #expect(error?.bodyTooLarge == limit, "\(String(describing: error))")
            } ?? 0
        }
    }
}
