import Foundation
import Synchronization
import Testing

@testable import ResourceKit

/// What a stream's body holds while its reader is behind a writer that never waits, as a session delegate's: the
/// chunks past the memory backlog wait in an unnamed file, and every chunk reaches the reader once, in order.
///
/// Serialized: a test that looks for the spool's name in `TMPDIR` must not see another test's there for a moment.
@Suite(.serialized, .timeLimit(.minutes(1))) struct StreamBacklogTests {
    /// 4 MiB, each byte its offset's low bits times 31.
    ///
    /// Made by appending a block of 256, not byte by byte: a static is made while every other test that reads it
    /// waits, and on 2 cores that can be the whole cooperative pool.
    private static let whole: Data = {
        let block = Data((0..<256).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var whole = Data(capacity: 4 << 20)
        for _ in 0..<(4 << 20) / 256 { whole.append(block) }
        return whole
    }()

    /// `whole` in chunks of 1 to 8 KiB.
    private static let chunks: [Data] = {
        var chunks: [Data] = []
        var offset = 0
        while offset < whole.count {
            let count = min(1_024 + (offset / 7) % 7_168, whole.count - offset)
            chunks.append(whole.subdata(in: offset..<offset + count))
            offset += count
        }
        return chunks
    }()

    /// Reads `channel` to its end, `pause` after each chunk.
    private static func readAll(_ channel: BodyChannel, pause: Duration = .zero) async throws -> Data {
        var read = Data()
        while let chunk = try await channel.next() {
            read.append(chunk)
            if pause > .zero { try await Task.sleep(for: pause) }
        }
        return read
    }

    /// Writes `chunks` into `channel` and ends it on a Dispatch thread, as curl's; returns whether the writer was
    /// done within 10 s, without a reader: a writer that waited for one would never be.
    private static func writeWithoutReader(_ chunks: [Data], into channel: BodyChannel) async -> Bool {
        let written = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for chunk in chunks { channel.write(chunk) }
            channel.finish()
            written.signal()
        }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: written.wait(timeout: .now() + 10) == .success)
            }
        }
    }

    @Test func aWriterNeverWaitsForAReaderAndMemoryHoldsOnlyTheBacklog() async throws {
        let channel = BodyChannel(backlog: 64 << 10) {}
        let done = await Self.writeWithoutReader(Self.chunks, into: channel)
        #expect(done, "the writer waited for a reader")
        guard done else { return channel.cancel(CancellationError()) }
        #expect(channel.waitingInMemory <= 64 << 10)
        #expect(try await Self.readAll(channel) == Self.whole)
    }

    /// Also with spool files of 4 KiB, so that the reader finishes files and catches up with chunks still being
    /// written all along.
    @Test(arguments: [Spool.segment, 4_096])
    func aSlowReaderGetsEveryChunkInOrderWhileTheWriterGoesOn(spoolSegment: Int64) async throws {
        let channel = BodyChannel(backlog: 32 << 10, spoolSegment: spoolSegment) {}
        DispatchQueue.global().async {
            for chunk in Self.chunks { channel.write(chunk) }
            channel.finish()
        }
        let read = try await Self.readAll(channel, pause: .microseconds(50))
        #expect(read == Self.whole)
    }

    @Test func aReaderTooFarBehindGetsWhatWaitedThenTheBacklogError() async throws {
        let stopped = Stopped()
        let channel = BodyChannel(backlog: 64 << 10, spoolLimit: 1 << 20) { stopped.stop() }
        #expect(await Self.writeWithoutReader(Self.chunks, into: channel))
        var read = Data()
        let error = await #expect(throws: URLError.self) {
            while let chunk = try await channel.next() { read.append(chunk) }
        }
        #expect(error?.code == .dataLengthExceedsMaximum)
        #expect(read.count > 1 << 20 && read.count <= (1 << 20) + (64 << 10))
        #expect(read == Self.whole.prefix(read.count))
        #expect(stopped.count == 1)
    }

    /// A reader that keeps up, but never takes the last byte just as it is written: the spool's files hold what it
    /// hasn't taken and one file more, never every byte that passed through.
    @Test func aSpoolThatIsReadAsItIsWrittenStaysSmall() async throws {
        let channel = BodyChannel(backlog: 16 << 10, spoolLimit: 1 << 20, spoolSegment: 64 << 10) {}
        let footprint = Mutex<Int64>(0)
        let read = Mutex(0)
        let written = Mutex(0)
        let readerGone = Mutex(false)
        defer { readerGone.withLock { $0 = true } }
        DispatchQueue.global().async {
            for _ in 0..<4 {
                for chunk in Self.chunks {
                    // Half a mebibyte ahead at most, so the reader is never past the spool's limit.
                    while written.withLock({ $0 }) - read.withLock({ $0 }) > 512 << 10 {
                        if readerGone.withLock({ $0 }) { return }
                        usleep(100)
                    }
                    channel.write(chunk)
                    written.withLock { $0 += chunk.count }
                    footprint.withLock { $0 = max($0, channel.spoolFootprint) }
                }
            }
            channel.finish()
        }
        // A quarter of a mebibyte waits before the first read: past the backlog, in the spool.
        while written.withLock({ $0 }) < 256 << 10 { try await Task.sleep(for: .milliseconds(1)) }
        while let chunk = try await channel.next() { read.withLock { $0 += chunk.count } }
        #expect(read.withLock { $0 } == 4 * Self.whole.count)
        #expect(footprint.withLock { $0 } > 0, "the spool was used")
        #expect(footprint.withLock { $0 } <= (1 << 20) + (64 << 10) + 8_192)
    }

    /// An empty chunk is no chunk: it reaches no reader, and reserves nothing in the spool.
    @Test func anEmptyChunkIsNotHandedOver() async throws {
        let channel = BodyChannel(backlog: 1_024) {}
        channel.write(Data())
        channel.write(Data("b".utf8))
        channel.write(Data())
        channel.finish()
        #expect(try await channel.next() == Data("b".utf8))
        #expect(try await channel.next() == nil)
    }

    @Test func theSpoolHasNoNameAnotherProcessCouldOpen() throws {
        let directory = FileManager.default.temporaryDirectory
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let channel = BodyChannel(backlog: 1_024) {}
        for chunk in Self.chunks.prefix(64) { channel.write(chunk) }  // the spool is made at the second
        let after = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(Set(after).subtracting(before).filter { $0.hasPrefix(".resourcekit-stream-") }.isEmpty)
        #expect(channel.waitingInMemory <= 1_024)
    }

    /// Counts the calls of a channel's `stop`.
    private final class Stopped: Sendable {
        private let calls = Mutex(0)
        func stop() { calls.withLock { $0 += 1 } }
        var count: Int { calls.withLock { $0 } }
    }
}
