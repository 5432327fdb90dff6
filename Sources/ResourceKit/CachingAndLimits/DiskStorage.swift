import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The entries of a persistent ``ResponseCache``: one file each in a directory (``CacheFile``), with only their names,
/// sizes and order of use in memory.
///
/// A file's name is the hash of its key's URL and the hash of its whole key (``EntryName``), so a lookup and
/// `removeAll(url:)` need no reads. A file is written whole under a temporary name and renamed into place, so a crash
/// leaves a temporary file, which the next open deletes, and never part of an entry. A file's modification time is
/// its last use: the next open orders the entries by it, so the least recently used go first across launches. A file
/// that turns out unreadable is deleted and treated as missing.
///
/// Files are not `fsync`ed: a killed process can't lose a renamed file, and a file that power loss leaves incomplete
/// fails its checksum and is dropped. The byte count is the sum of the files' sizes.
struct DiskStorage: CacheStorage {
    private let directory: CacheDirectory
    private let byteLimit: Int
    /// Each entry's file size, in the order of use.
    private var files = RecencyList<EntryName, Int>()
    private(set) var byteCount = 0
    /// The time of the latest use, in nanoseconds since 1970; each use is given a later one than the last, so that
    /// uses within one tick of the file system's clock keep their order.
    private var lastUse: Int64 = 0

    /// Opens the cache in `url`, creating the directory if needed: deletes temporary files a crash left, orders the
    /// entries by their last use, and drops the least recently used beyond `byteLimit`.
    ///
    /// - Throws: A `CocoaError` when the directory can't be created or read, or another cache has it open.
    init(directory url: URL, byteLimit: Int) throws {
        directory = try CacheDirectory(url)
        self.byteLimit = byteLimit
        var found: [(name: EntryName, size: Int, used: Int64)] = []
        for name in try directory.names() {
            if name.hasPrefix(CacheDirectory.temporaryPrefix) {
                directory.remove(name)
            } else if let entry = EntryName(fileName: name) {
                if let file = directory.regularFile(name) {
                    found.append((entry, file.size, file.modified))
                } else {
                    directory.remove(name)  // a link or another kind of file under an entry's name
                }
            }
        }
        found.sort { ($0.used, $0.name.url, $0.name.key) < ($1.used, $1.name.url, $1.name.key) }
        for file in found {
            files.insert(file.size, for: file.name)
            byteCount += file.size
        }
        lastUse = found.last?.used ?? 0
        makeRoom(for: 0)
    }

    var count: Int { files.count }

    mutating func entry(for key: ResponseCache.Key) -> ResponseCache.Entry? {
        guard let keyBytes = try? CacheFile.keyBytes(key) else { return nil }
        let name = EntryName(key, keyBytes: keyBytes)
        guard files[name] != nil else { return nil }
        do {
            let (entry, size) = try directory.read(name.fileName, usedAt: nextUse()) { descriptor, size in
                // A file that grew past the limit since the open is not read into memory.
                guard size <= byteLimit else { throw CacheFile.Corrupt() }
                return try CacheFile.read(descriptor, size: size, key: keyBytes)
            }
            files.use(name)
            if let old = files[name], old != size {
                byteCount += size - old
                files.insert(size, for: name)
            }
            return entry
        } catch is CacheDirectory.Unavailable {
            return nil  // the process is out of descriptors or memory: the file is kept for later
        } catch {
            drop(name)
            return nil
        }
    }

    mutating func insert(_ entry: ResponseCache.Entry, for key: ResponseCache.Key) {
        guard let keyBytes = try? CacheFile.keyBytes(key) else { return }
        let name = EntryName(key, keyBytes: keyBytes)
        drop(name)
        guard let head = try? CacheFile.head(of: entry, key: keyBytes) else { return }
        let size = head.count + entry.response.body.count
        guard size <= byteLimit else { return }
        makeRoom(for: size)
        guard (try? directory.write(name.fileName, head, entry.response.body, usedAt: nextUse())) != nil else { return }
        files.insert(size, for: name)
        byteCount += size
    }

    mutating func remove(_ key: ResponseCache.Key) {
        guard let keyBytes = try? CacheFile.keyBytes(key) else { return }
        drop(EntryName(key, keyBytes: keyBytes))
    }

    mutating func removeAll(url: String) {
        let urlHash = EntryName.hash(url: url)
        for name in files.keys.filter({ $0.url == urlHash }) { drop(name) }
    }

    mutating func removeAll() throws {
        files.removeAll()
        byteCount = 0
        var failures: [String] = []
        for name in try directory.names()
        where name.hasPrefix(CacheDirectory.temporaryPrefix) || EntryName(fileName: name) != nil {
            if let failure = directory.remove(name) { failures.append("\(name): \(failure)") }
        }
        guard failures.isEmpty else {
            throw CocoaError(
                .fileWriteNoPermission,
                userInfo: [
                    NSFilePathErrorKey: directory.path,
                    NSLocalizedDescriptionKey: "\(failures.count) of the cache's files can't be deleted in "
                        + "\(directory.path): \(failures.prefix(3).joined(separator: "; "))",
                ])
        }
    }

    /// Drops the least recently used entries until `size` more bytes fit in the limit.
    private mutating func makeRoom(for size: Int) {
        while byteCount + size > byteLimit, let oldest = files.leastRecentlyUsedKey {
            drop(oldest)
        }
    }

    /// Forgets the entry `name`, if there is one, and deletes its file.
    private mutating func drop(_ name: EntryName) {
        guard let size = files.removeValue(forKey: name) else { return }
        byteCount -= size
        directory.remove(name.fileName)
    }

    /// A time for a use, later than every use before it.
    private mutating func nextUse() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        lastUse = max(lastUse + 1, Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
        return lastUse
    }
}

/// The name of an entry's file: the XXH64 of its key's URL and of its whole key (``CacheFile/keyBytes(_:)``), each in
/// 16 lowercase hexadecimal digits, joined by `-`.
///
/// Two keys with one name share a file: the file holds its key, so a lookup for the other key finds a mismatch, a
/// miss. The URL's part makes `removeAll(url:)` a matter of names.
struct EntryName: Hashable {
    /// The hash of the key's URL.
    var url: UInt64
    /// The hash of the whole key.
    var key: UInt64

    /// The name of the file for `key`, whose ``CacheFile/keyBytes(_:)`` are `keyBytes`.
    init(_ key: ResponseCache.Key, keyBytes: [UInt8]) {
        url = Self.hash(url: key.url)
        self.key = xxh64(keyBytes)
    }

    /// The name a file is called by, or `nil` when it isn't exactly an entry's name.
    init?(fileName: String) {
        let parts = fileName.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard parts.count == 2, let url = Self.number(parts[0]), let key = Self.number(parts[1]) else { return nil }
        self.url = url
        self.key = key
    }

    /// The name of the file.
    var fileName: String { Self.hex(url) + "-" + Self.hex(key) }

    /// The hash of a key's URL.
    static func hash(url: String) -> UInt64 {
        xxh64(Array(url.utf8))
    }

    /// `value` in 16 lowercase hexadecimal digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The number that exactly 16 lowercase hexadecimal digits spell, or `nil` for anything else.
    private static func number(_ digits: Substring.UTF8View) -> UInt64? {
        guard digits.count == 16 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }
}

/// A persistent cache's directory, open and locked for as long as the cache has it: every file operation goes through
/// its descriptor, and never follows a link in place of an entry.
///
/// The lock is an exclusive `flock` on the directory itself, taken without waiting, so a second cache, in this
/// process or another, fails to open the directory instead of sharing it; it goes with the descriptor, when the
/// storage that holds this goes away or the process ends.
final class CacheDirectory: Sendable {
    /// A file that can't be opened for a reason of the moment, such as the process being out of descriptors: the
    /// file itself may be fine.
    struct Unavailable: Error {}

    /// The prefix of the name of a file being written.
    static let temporaryPrefix = ".tmp-"
    /// The directory's path, for messages.
    let path: String
    private let descriptor: Int32

    /// Opens and locks the directory at `url`, creating it, private to the user, if it is missing.
    ///
    /// - Throws: A `CocoaError` when it isn't a `file:` URL, the directory can't be created or opened, or another
    ///   cache has it open.
    init(_ url: URL) throws {
        guard url.isFileURL else { throw CocoaError(.fileReadUnsupportedScheme, userInfo: [NSURLErrorKey: url]) }
        path = url.path
        let parent = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw Self.failure(.fileWriteUnknown, "The cache's directory can't be created at \(path)", path: path)
        }
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Self.failure(.fileReadUnknown, "The cache's directory can't be opened at \(path)", path: path)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = Self.failure(
                .fileLocking, "Another ResponseCache has the directory \(path) open, or it can't be locked", path: path)
            close(descriptor)
            throw failure
        }
    }

    deinit {
        close(descriptor)
    }

    /// The names in the directory.
    ///
    /// - Throws: A `CocoaError` when it can't be listed.
    func names() throws -> [String] {
        guard let stream = fdopendir(dup(descriptor)) else {
            throw Self.failure(.fileReadUnknown, "The cache's directory can't be listed at \(path)", path: path)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The size and modification time (nanoseconds since 1970) of the regular file `name`; `nil` when it is missing
    /// or something else, such as a link.
    func regularFile(_ name: String) -> (size: Int, modified: Int64)? {
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFREG,
            let size = Int(exactly: status.st_size)
        else { return nil }
        #if canImport(Darwin)
            let modified = status.st_mtimespec
        #else
            let modified = status.st_mtim
        #endif
        return (size, Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec))
    }

    /// Reads the regular file `name` with `read`, which gets its descriptor and size, then sets its modification time
    /// to `used`; returns what `read` returned and the file's size.
    ///
    /// - Throws: ``Unavailable`` when the process can't open a file now, ``CacheFile/Corrupt`` when the file can't be
    ///   opened or isn't a regular file, or what `read` throws.
    func read<Result>(_ name: String, usedAt used: Int64, _ read: (Int32, Int) throws -> Result) throws -> (Result, Int)
    {
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else {
            if [EMFILE, ENFILE, ENOMEM, EINTR].contains(errno) { throw Unavailable() }
            throw CacheFile.Corrupt()
        }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, let size = Int(exactly: status.st_size)
        else { throw CacheFile.Corrupt() }
        let result = try read(file, size)
        Self.setModified(file, to: used)
        return (result, size)
    }

    /// Writes `head` then `body` to a new file, private to the user, with the modification time `used`, and renames it
    /// to `name`, replacing what was there; on failure nothing is left behind.
    ///
    /// - Throws: ``CacheFile/Corrupt`` when the file can't be created, written or renamed.
    func write(_ name: String, _ head: [UInt8], _ body: Data, usedAt used: Int64) throws {
        let temporary = Self.temporaryPrefix + String(UInt64.random(in: .min ... .max), radix: 16)
        let file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw CacheFile.Corrupt() }
        let written =
            head.withUnsafeBytes { writeAll(file, $0) } && body.withUnsafeBytes { writeAll(file, $0) }
            && Self.setModified(file, to: used)
        guard close(file) == 0, written, renameat(descriptor, temporary, descriptor, name) == 0 else {
            unlinkat(descriptor, temporary, 0)
            throw CacheFile.Corrupt()
        }
    }

    /// Deletes the file `name`; returns why it couldn't be, or `nil` when it is gone.
    @discardableResult
    func remove(_ name: String) -> String? {
        guard unlinkat(descriptor, name, 0) != 0, errno != ENOENT else { return nil }
        return String(cString: strerror(errno))
    }

    /// Sets the access and modification times of `file` to `nanoseconds` since 1970; `false` when it can't.
    @discardableResult
    private static func setModified(_ file: Int32, to nanoseconds: Int64) -> Bool {
        let time = timespec(
            tv_sec: .init(clamping: nanoseconds / 1_000_000_000), tv_nsec: .init(nanoseconds % 1_000_000_000))
        return [time, time].withUnsafeBufferPointer { futimens(file, $0.baseAddress) } == 0
    }

    /// A `CocoaError` with `code`, saying `reason` and the system's cause.
    private static func failure(_ code: CocoaError.Code, _ reason: String, path: String) -> CocoaError {
        let cause = String(cString: strerror(errno))
        return CocoaError(
            code, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "\(reason): \(cause)."])
    }
}
