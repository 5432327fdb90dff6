import EpisodesService
import Foundation
import ResourceKit
import Testing

extension MemoryHungryTests {
    /// Large bodies arrive whole, and a resource's `maxBodySize` stops one that is too large while it arrives, with each
    /// transport.
    @Suite(.timeLimit(.minutes(1))) struct LargeBodyTests {
        private static let megabyte = 1_048_576

        @Test(arguments: TransportKind.allCases)
        func fiftyMegabyteBodyArrivesWholeThroughTheTransportUnderTest(kind: TransportKind) async throws {
            try await withServer { base in
                let data = try await kind.webservice().load(bytes(base / "faults/large?megabytes=50"))
                #expect(data.count == 50 * 1_048_576)
                let mismatch = data.withUnsafeBytes { buffer in
                    buffer.indices.first { buffer[$0] != UInt8($0 % 251) }
                }
                #expect(mismatch == nil)
            }
        }

        @Test(arguments: TransportKind.allCases) func announcedBodyOverTheLimitIsRefused(kind: TransportKind)
            async throws
        {
            try await withServer { base in
                var large = bytes(base / "faults/large?megabytes=64")
                large.maxBodySize = Self.megabyte
                let error = try await #require(throws: WebserviceError.self) {
                    try await kind.webservice().load(large)
                }
                #expect(error.bodyTooLarge == Self.megabyte, "\(error)")
            }
        }

        @Test(arguments: TransportKind.allCases) func streamedBodyOverTheLimitIsAbandonedWithoutBeingHeld(
            kind: TransportKind
        )
            async throws
        {
            // Two gigabytes without a Content-Length, at about 50 MB/s (a fast real network): only stopping early keeps
            // the process from holding them. (At loopback speed, gigabytes a second, Linux's URLSession delivers the
            // bytes to its delegate late, so it can only stop after hundreds of megabytes.)
            try await withServer { base in
                var endless = bytes(base / "faults/large?megabytes=2048&chunked=1&ms=1")
                endless.maxBodySize = Self.megabyte
                let before = try #require(processMemory("VmRSS"))
                let error = try await #require(throws: WebserviceError.self) {
                    try await kind.webservice().load(endless)
                }
                let peak = try #require(processMemory("VmHWM"))
                #expect(error.bodyTooLarge == Self.megabyte, "\(error)")
                #expect(peak - before < 512 * Self.megabyte, "peak \(peak / Self.megabyte) MB")
            }
        }

        @Test(arguments: TransportKind.allCases) func bodyWithinTheLimitArrivesWhole(kind: TransportKind) async throws {
            try await withServer { base in
                for chunked in [0, 1] {
                    var large = bytes(base / "faults/large?megabytes=2&chunked=\(chunked)")
                    large.maxBodySize = 2 * Self.megabyte
                    let body = try await kind.webservice().load(large)
                    #expect(body.count == 2 * Self.megabyte)
                    #expect(body.last == UInt8((2 * Self.megabyte - 1) % 251))
                }
            }
        }

        @Test(arguments: TransportKind.allCases) func limitedLoadStillDropsCredentialsOnACrossOriginRedirect(
            kind: TransportKind
        )
            async throws
        {
            // URLSession enforces the limit with a task delegate; redirects must still go through the session's.
            try await withTwoServers { base, other in
                let headers = ["Authorization": "Bearer swift-talk-token"]
                var redirect = Resource<[String: String]>(get: base / "faults/redirect", headers: headers)
                let target = (other / "faults/headers").absoluteString
                redirect.queryItems = [URLQueryItem(name: "to", value: target)]
                redirect.maxBodySize = Self.megabyte
                let received = try await kind.webservice().load(redirect)
                #expect(received["authorization"] == nil)
                #expect(received["accept"] == "application/json")
            }
        }
    }
}
