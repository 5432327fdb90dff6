import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The chunks of a stream's body that its reader is too far behind to keep in memory, in temporary files that have
/// no name: written at the end on the writer's thread, read from the start off the cooperative pool.
///
/// Its owner keeps it under a lock, but neither writes nor reads a file under it: the one writer asks where a chunk
/// goes (``reserve(_:)``), writes it (``write(_:at:in:)``) and then counts it (``commit(_:to:at:)``); the reader asks
/// for a ``Piece``, reads it, and then marks it taken (``took(_:)``).
///
/// No other process can open a file of it, and each is gone when it is closed, also after a crash: on Linux it never
/// has a name (`O_TMPFILE`); elsewhere, or on a file system without such files, it has one for a moment, in a directory
/// where no other user can rename it (<doc:FilesOnDisk>). The chunks go into files of at most ``segment`` bytes, and a
/// file the reader has read to its end is closed, so the disk holds what the reader hasn't taken and at most one segment
/// more, however long the stream.
struct Spool {
    /// The most bytes a spool holds for its reader before the stream fails, by default.
    static let limit: Int64 = 1 << 30
    /// The most bytes written to one file.
    static let segment: Int64 = 64 << 20

    /// The most bytes it holds for its reader.
    private let limit: Int64
    /// The most bytes it writes to one file.
    private let segment: Int64
    /// The files, oldest first: the reader reads the first, the writer writes the last.
    private var files: [File] = []

    /// A file of the spool and the part of it the reader hasn't taken.
    private struct File {
        let descriptor: Int32
        var start: Int64 = 0
        var end: Int64 = 0
    }

    /// The bytes written, or being written, that the reader hasn't taken.
    private(set) var unread: Int64 = 0
    /// Where the writer is writing a chunk outside the lock, if it is.
    private var writing: Placement?
    /// Whether the spool was emptied (``removeAll()``) while the writer was writing: its file is closed when the
    /// writer is done with it.
    private var emptiedWhileWriting = false

    /// Where the writer writes a chunk: into the spool's last file at `offset`, or, without a `descriptor`, into a
    /// new file at its start.
    struct Placement: Sendable {
        let descriptor: Int32?
        let offset: Int64
    }

    /// An empty spool that holds at most `limit` bytes for its reader in files of at most `segment` bytes; its
    /// first file is made at the first chunk.
    init(limit: Int64 = Spool.limit, segment: Int64 = Spool.segment) {
        self.limit = limit
        self.segment = segment
    }

    /// The bytes its files hold on disk.
    var footprint: Int64 { files.reduce(0) { $0 + $1.end } }

    /// Reserves the place of `count` bytes after those written, more than 0, for the writer to write there outside
    /// the lock.
    ///
    /// - Throws: ``BodyChannel/backlogExceeded(_:)`` when the reader would be more than the spool's limit behind.
    mutating func reserve(_ count: Int) throws -> Placement {
        guard unread + Int64(count) <= limit else {
            throw BodyChannel.backlogExceeded(ByteCountFormatter.string(fromByteCount: limit, countStyle: .binary))
        }
        unread += Int64(count)
        let placement =
            if let last = files.last, last.end == 0 || last.end + Int64(count) <= segment {
                Placement(descriptor: last.descriptor, offset: last.end)
            } else {
                Placement(descriptor: nil, offset: 0)
            }
        writing = placement
        return placement
    }

    /// Writes `data` at `placement`, making its new file in `directory` (`nil`: the temporary directory, `TMPDIR`) if
    /// it has none, with blocking calls on the writer's thread; returns the descriptor written, for
    /// ``commit(_:to:at:)``.
    static func write(_ data: Data, at placement: Placement, in directory: String?) throws -> Int32 {
        let descriptor = try placement.descriptor ?? temporaryFile(in: directory)
        guard data.withUnsafeBytes({ writeAll(descriptor, $0, at: placement.offset) }) else {
            let failure = Self.failure("written", errno)
            if placement.descriptor == nil { systemClose(descriptor) }
            throw failure
        }
        return descriptor
    }

    /// Counts the `count` bytes written to `descriptor` at `placement`, which ``reserve(_:)`` returned; returns
    /// the descriptors to close outside the lock: the one written, when the spool was emptied meanwhile.
    mutating func commit(_ count: Int, to descriptor: Int32, at placement: Placement) -> [Int32] {
        writing = nil
        guard !emptiedWhileWriting else {
            emptiedWhileWriting = false
            return [descriptor]
        }
        if placement.descriptor == nil { files.append(File(descriptor: descriptor)) }
        files[files.count - 1].end += Int64(count)
        return []
    }

    /// Gives up the place of the `count` bytes the writer couldn't write at `placement`; returns the descriptors
    /// to close outside the lock.
    mutating func abandon(_ count: Int, at placement: Placement) -> [Int32] {
        writing = nil
        guard !emptiedWhileWriting else {
            emptiedWhileWriting = false
            return placement.descriptor.map { [$0] } ?? []
        }
        unread -= Int64(count)
        return []
    }

    /// Where the reader's next bytes are, at most `most` of them, to read with ``Piece/read()`` outside the lock;
    /// `nil` when it has taken every byte.
    func next(atMost most: Int) -> Piece? {
        guard let first = files.first, first.end > first.start else { return nil }
        return Piece(
            descriptor: first.descriptor, offset: first.start, count: Int(min(first.end - first.start, Int64(most)))
        )
    }

    /// Marks the `count` bytes of the last ``next(atMost:)`` taken; returns the descriptor of a file the reader has
    /// read to its end, for the caller to close outside the lock.
    mutating func took(_ count: Int) -> Int32? {
        guard !files.isEmpty else { return nil }
        files[0].start += Int64(count)
        unread -= Int64(count)
        guard files[0].start == files[0].end else { return nil }
        if files.count == 1, let writing {
            // The writer writes after its end, or into a file it makes: that one takes its place.
            guard writing.descriptor == nil else { return nil }
        } else if files.count == 1 {
            // The one file is read: the next chunk is written at its start again.
            (files[0].start, files[0].end) = (0, 0)
            return nil
        }
        return files.removeFirst().descriptor
    }

    /// Takes the descriptors of every file out of the spool, which is empty afterwards, for the caller to close
    /// outside the lock: closing a large unlinked file frees its space, which takes a while.
    ///
    /// The file the writer is writing is closed once it is done (``commit(_:to:at:)``).
    mutating func removeAll() -> [Int32] {
        defer { (files, unread, emptiedWhileWriting) = ([], 0, writing != nil) }
        return files.map(\.descriptor).filter { $0 != writing?.descriptor }
    }

    /// Closes `descriptors` on a Dispatch thread, neither the writer's nor the cooperative pool's.
    static func close(_ descriptors: [Int32]) {
        guard !descriptors.isEmpty else { return }
        DispatchQueue.global().async {
            for descriptor in descriptors { systemClose(descriptor) }
        }
    }

    /// A new file with no name in the directory at `path`, the temporary directory (`TMPDIR`) when it is `nil`.
    ///
    /// A link at the path is followed, as in any path given: the file is made through the descriptor of the directory
    /// it leads to, the one ``namedFile(in:at:)`` checks. A file that never has a name needs no check: whoever owns the
    /// directory, no one can rename it.
    private static func temporaryFile(in path: String?) throws -> Int32 {
        let path = path ?? FileManager.default.temporaryDirectory.path
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC)
        guard directory >= 0 else { throw failure("made", errno) }
        defer { systemClose(directory) }
        #if os(Linux)
            // Glibc doesn't export `O_TMPFILE` to Swift: it is `__O_TMPFILE | O_DIRECTORY`, the first 0o20000000 on
            // every architecture Swift runs on (`O_DIRECTORY` differs: 0o200000 on x86_64, 0o40000 on aarch64).
            let unnamed = openat(directory, ".", 0o20000000 | O_DIRECTORY | O_RDWR | O_EXCL | O_CLOEXEC, 0o600)
            if unnamed >= 0 { return unnamed }
            // A file system without unnamed files, or a kernel before 3.11 (`EISDIR`), gets one named for a moment.
            guard [EOPNOTSUPP, EISDIR, EINVAL].contains(errno) else { throw failure("made", errno) }
        #endif
        return try namedFile(in: directory, at: path)
    }

    /// A new file in the directory open as `directory`, at `path`, made `O_EXCL` and `0600` (so no file or link another
    /// user placed is ever opened) and unlinked at once.
    ///
    /// - Throws: `URLError(.cannotWriteToFile)` also when another user could rename the file before it is unlinked,
    ///   and keep it (``SafeFile/othersCanRename(in:)``): no file is made there.
    static func namedFile(in directory: Int32, at path: String) throws -> Int32 {
        var status = stat()
        guard fstat(directory, &status) == 0 else { throw failure("made", errno) }
        guard !SafeFile.othersCanRename(in: status) else {
            throw failure(
                "The temporary directory \(path) is another user's, or others can write it and it isn't sticky: the "
                    + "file that would hold what a stream's reader is behind isn't made there, where they could keep it."
            )
        }
        let name = ".resourcekit-stream-" + EntryName.hex(UInt64.random(in: .min ... .max))
        let descriptor: Int32
        do {
            descriptor = try SafeFile.open(name, in: directory, O_RDWR | O_CREAT | O_EXCL, owner: .user).descriptor
        } catch {
            throw failure("The temporary file that holds what a stream's reader is behind couldn't be made (\(error)).")
        }
        // A file that keeps its name could be opened by another process of this user: none is used.
        guard unlinkat(directory, name, 0) == 0 else {
            let code = errno
            systemClose(descriptor)
            throw failure("made", code)
        }
        return descriptor
    }

    /// A range of the spool's bytes; its bytes don't change until the reader took them.
    struct Piece: Sendable {
        let descriptor: Int32
        let offset: Int64
        let count: Int

        /// The bytes, read with blocking calls: on a Dispatch thread, never on the cooperative pool.
        func read() throws -> Data {
            var data = Data(count: count)
            errno = 0  // a file that ends early sets none
            guard data.withUnsafeMutableBytes({ readAll(descriptor, into: $0, at: offset) }) else {
                throw Spool.failure("read", errno == 0 ? EIO : errno)
            }
            return data
        }
    }

    /// The error of a spool that couldn't be made, written or read, for the `errno` `code`.
    fileprivate static func failure(_ what: String, _ code: Int32) -> URLError {
        failure(
            "The temporary file that holds what a stream's reader is behind couldn't be \(what): "
                + String(cString: strerror(code)) + ".")
    }

    /// The error of a spool whose file wasn't made, written or read, that `description` describes.
    private static func failure(_ description: String) -> URLError {
        URLError(.cannotWriteToFile, userInfo: [NSLocalizedDescriptionKey: description])
    }
}
