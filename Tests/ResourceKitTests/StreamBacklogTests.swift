import Foundation
import ResourceKit
import Synchronization
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

/// What a stream's body holds while its reader is behind a writer that never waits, as a session delegate's: the
/// chunks past the memory backlog wait in an unnamed file, and every chunk reaches the reader once, in order.
@Suite(.timeLimit(.minutes(1))) struct StreamBacklogTests {
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

    /// The spool's file is made in the directory given, which never has an entry for it: on Linux the file never has
    /// a name (`O_TMPFILE`), so the directory isn't even modified; elsewhere the name is gone at once.
    ///
    /// Against `mkstemp` and `unlink`, the directory had no entry afterwards either, but was modified.
    @Test func theSpoolHasNoNameAnotherProcessCouldOpen() throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var modified = [timespec(tv_sec: 1, tv_nsec: 0), timespec(tv_sec: 1, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, directory.path, &modified, 0) == 0)
        let channel = BodyChannel(backlog: 1_024, spoolDirectory: directory.path) {}
        defer { channel.cancel(CancellationError()) }
        for chunk in Self.chunks.prefix(64) { channel.write(chunk) }  // the spool is made at the second
        #expect(channel.spoolFootprint > 0)
        #expect(try files(in: directory).isEmpty)
        #if os(Linux)
            let links = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
            }
            #expect(links.contains { $0.hasPrefix(directory.path + "/") }, "the spool's file isn't in the directory")
            var status = stat()
            #expect(stat(directory.path, &status) == 0)
            // `O_TMPFILE`: a file system without unnamed files (overlayfs before Linux 6.6) names the spool's too.
            let unnamed = open(directory.path, 0o20000000 | O_DIRECTORY | O_RDWR | O_CLOEXEC, 0o600)
            if unnamed >= 0 { close(unnamed) }
            #expect(status.st_mtim.tv_sec == 1 || unnamed < 0, "an entry was made in the directory, and removed")
        #endif
    }

    /// Directories the spool's file may be made in: the user's own, private, sticky or open to others' writes, and,
    /// where the test may give one away (as root), another user's.
    static let temporaryDirectories =
        [
            TemporaryDirectory(owner: geteuid(), mode: 0o700, refused: false),
            TemporaryDirectory(owner: geteuid(), mode: 0o1777, refused: false),  // as `/tmp`
            TemporaryDirectory(owner: geteuid(), mode: 0o777, refused: true),
            TemporaryDirectory(owner: geteuid(), mode: 0o770, refused: true),
        ]
        + (geteuid() == 0
            ? [
                TemporaryDirectory(owner: 65_534, mode: 0o700, refused: true),
                TemporaryDirectory(owner: 65_534, mode: 0o1777, refused: true),
            ] : [])

    /// A directory's owner and permission bits, and whether the spool refuses to name a file in it.
    struct TemporaryDirectory: Sendable, CustomTestStringConvertible {
        var owner: uid_t
        var mode: mode_t
        var refused: Bool

        var testDescription: String { "uid \(owner), mode \(String(mode, radix: 8))" }
    }

    /// A temporary directory where the spool's file would have a name for a moment (elsewhere than Linux, or on a file
    /// system without unnamed files): no other user may be able to rename it before it is unlinked, and keep it.
    @Test(arguments: temporaryDirectories)
    func aSpoolFileIsNamedOnlyWhereNoOtherUserCanRenameIt(_ shared: TemporaryDirectory) throws {
        let directory = try newDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(chown(directory.path, shared.owner, gid_t.max) == 0 && chmod(directory.path, shared.mode) == 0)
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        if shared.refused {
            let error = #expect(throws: URLError.self) { try Spool.namedFile(in: descriptor, at: directory.path) }
            #expect(error?.code == .cannotWriteToFile)
            #expect(error?.localizedDescription.contains(directory.path) == true)
        } else {
            close(try Spool.namedFile(in: descriptor, at: directory.path))
        }
        #expect(try files(in: directory).isEmpty)
    }

    /// Counts the calls of a channel's `stop`.
    private final class Stopped: Sendable {
        private let calls = Mutex(0)
        func stop() { calls.withLock { $0 += 1 } }
        var count: Int { calls.withLock { $0 } }
    }
}
