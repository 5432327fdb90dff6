import Foundation
import ResourceKit  // not `@testable`: the writer as a user's transport sees it
import Synchronization
import Testing

/// What a transport of yours gets from `ResponseBody.Writer`: a writer that never waits, and a body that holds every
/// chunk in order.
@Suite(.timeLimit(.minutes(1))) struct ResponseBodyWriterTests {
    /// 4 MiB in chunks of 1 to 8 KiB, each byte its offset's low bits times 31.
    private static let chunks: [Data] = {
        var chunks: [Data] = []
        var offset = 0
        while offset < 4 << 20 {
            let count = min(1_024 + (offset / 7) % 7_168, (4 << 20) - offset)
            chunks.append(Data((offset..<offset + count).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
            offset += count
        }
        return chunks
    }()

    @Test func aWriterNeverWaitsForTheReaderAndTheBodyHasEveryChunkInOrder() async throws {
        let writer = ResponseBody.Writer(backlog: 64 << 10) {}
        // Written and ended on a Dispatch thread, as curl's, before anything reads: a writer that waited would hang.
        let done = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                for chunk in Self.chunks { writer.write(chunk) }
                writer.finish()
                continuation.resume(returning: true)
            }
        }
        #expect(done)
        let read = try await writer.body.collect(upTo: 8 << 20)
        #expect(read == Self.chunks.reduce(Data(), +))
    }

    @Test func aBodyDroppedUnreadStopsTheTransferAndAFailureReachesTheReader() async throws {
        let stops = Mutex(0)
        do {
            let writer = ResponseBody.Writer { stops.withLock { $0 += 1 } }
            writer.write(Data(count: 10))
            _ = writer.body
        }
        #expect(stops.withLock { $0 } == 1)

        let failing = ResponseBody.Writer {}
        failing.write(Data(count: 10))
        failing.finish(throwing: URLError(.networkConnectionLost))
        let error = try await #require(throws: URLError.self) { try await failing.body.collect(upTo: 100) }
        #expect(error.code == .networkConnectionLost)
    }
}
