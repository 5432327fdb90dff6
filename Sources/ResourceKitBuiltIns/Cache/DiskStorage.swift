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

/// The entries of a persistent ``ResponseCache``: one file each in a directory (``CacheFile``), with only their names,
/// sizes and order of use in memory.
///
/// A file's name is the salted SHA-256 of its key's URL and of its whole key (``EntryName``), so a lookup and
/// `removeAll(url:)` need no reads. The salt is 32 random bytes kept in the directory (``CacheDirectory/saltName``),
/// made at the first open, and again when the file is missing or invalid, or the directory was open to others' writes
/// (every entry is then dropped: none could be found again, and any could be planted), and by ``removeAll()``. No
/// request URL or header field is written, and no credential of the response's head (``CacheFile``): a guess at a URL
/// or a credential can't be tested against the names or keys without the salt. A file is written whole under a
/// temporary name and renamed into place, so a crash leaves a temporary file, which the next open deletes, and never
/// part of an entry. A file's modification time is its last use: the next open orders the entries by it, so the least
/// recently used go first across launches. A file that turns out unreadable is deleted and treated as missing.
///
/// Files are not `fsync`ed: a killed process can't lose a renamed file, and a file that power loss leaves incomplete
/// fails its checksum and is dropped. The byte count is the sum of the files' sizes, those that couldn't be deleted
/// included: they are deleted again when room is needed.
struct DiskStorage: CacheStorage {
    private let directory: CacheDirectory
    private let byteLimit: Int
    /// The directory's secret salt, which every digest starts with.
    private var salt: [UInt8]
    /// Each entry's file size, in the order of use.
    private var files = RecencyList<EntryName, Int>()
    private(set) var byteCount = 0
    /// The size of each file that was dropped but couldn't be deleted, by name; counted in ``byteCount``.
    private var undeleted: [String: Int] = [:]
    /// The time of the latest use, in nanoseconds since 1970; each use is given a later one than the last, so that
    /// uses within one tick of the file system's clock keep their order.
    private var lastUse: Int64 = 0

    /// Opens the cache in `url`, creating the directory if needed: reads its salt, or, when it has none or the group
    /// or others could write the directory, makes a new one and deletes every entry, deletes temporary files a crash
    /// left, orders the entries by their last use, and drops the least recently used beyond `byteLimit`.
    ///
    /// - Throws: A `CocoaError` when the directory can't be created or read, its salt can't be written, or another
    ///   cache has it open.
    init(directory url: URL, byteLimit: Int) throws {
        directory = try CacheDirectory(url)
        self.byteLimit = byteLimit
        // What a directory others could write holds may be theirs, the salt included: nothing of it is used.
        let existing = directory.wasShared ? nil : directory.salt()
        salt = try existing ?? directory.replaceSalt()
        var found: [(name: EntryName, size: Int, used: Int64)] = []
        for name in try directory.names() {
            if CacheDirectory.isTemporary(name) || (existing == nil && EntryName(fileName: name) != nil) {
                directory.remove(name)  // a new salt: no entry could be found again
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
        // A response kept for one web service alone is kept in no file: another process is another web service.
        guard key.service == nil, let keyBytes = try? CacheFile.keyBytes(key, salt: salt) else { return nil }
        let name = EntryName(key, keyBytes: keyBytes, salt: salt)
        guard files[name] != nil else { return nil }
        do {
            let (entry, size) = try directory.read(name.fileName, usedAt: nextUse()) { descriptor, size in
                // A file that grew past the limit since the open is not read into memory.
                guard size <= byteLimit else { throw CacheFile.Corrupt() }
                return try CacheFile.read(descriptor, size: size, key: keyBytes, url: key.url)
            }
            files.use(name)
            if let old = files[name], old != size {
                byteCount += size - old
                files.insert(size, for: name)
                makeRoom(for: 0)  // the file grew since it was counted
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
        guard key.service == nil, let keyBytes = try? CacheFile.keyBytes(key, salt: salt) else { return }
        let name = EntryName(key, keyBytes: keyBytes, salt: salt)
        drop(name)
        guard let head = try? CacheFile.head(of: entry, key: keyBytes, url: key.url, secrets: key.secrets) else {
            return
        }
        let size = head.count + entry.response.body.count
        guard size <= byteLimit else { return }
        makeRoom(for: size)
        // Files that couldn't be deleted may leave no room.
        guard byteCount + size <= byteLimit,
            (try? directory.write(name.fileName, head, entry.response.body, usedAt: nextUse())) != nil
        else { return }
        if let replaced = undeleted.removeValue(forKey: name.fileName) { byteCount -= replaced }
        files.insert(size, for: name)
        byteCount += size
    }

    mutating func remove(_ key: ResponseCache.Key) {
        guard let keyBytes = try? CacheFile.keyBytes(key, salt: salt) else { return }
        drop(EntryName(key, keyBytes: keyBytes, salt: salt))
    }

    mutating func removeAll(url: String) {
        let urlHash = EntryName.hash(url: url, salt: salt)
        for name in files.keys.filter({ $0.url == urlHash }) { drop(name) }
    }

    /// Deletes every entry's file, then replaces the salt, so that nothing derivable is shared with what was stored
    /// before; a file that can't be deleted is emptied, so no later open serves it, and stays counted.
    ///
    /// - Throws: A `CocoaError` when a file can't be deleted, or the new salt can't be written.
    mutating func removeAll() throws {
        files.removeAll()
        undeleted.removeAll()
        byteCount = 0
        var failures: [String] = []
        for name in try directory.names() where CacheDirectory.isTemporary(name) || EntryName(fileName: name) != nil {
            if let failure = directory.remove(name) {
                failures.append("\(name): \(failure)")
                directory.empty(name)
                let size = directory.regularFile(name)?.size ?? 0
                undeleted[name] = size
                byteCount += size
            }
        }
        do {
            salt = try directory.replaceSalt()
        } catch {
            failures.append("\(CacheDirectory.saltName): \(error.localizedDescription)")
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

    /// Deletes the files that couldn't be deleted before, then drops the least recently used entries, until `size`
    /// more bytes fit in the limit.
    private mutating func makeRoom(for size: Int) {
        guard byteCount + size > byteLimit else { return }
        for (name, bytes) in undeleted where directory.remove(name) == nil {
            undeleted[name] = nil
            byteCount -= bytes
        }
        while byteCount + size > byteLimit, let oldest = files.leastRecentlyUsedKey {
            drop(oldest)
        }
    }

    /// Forgets the entry `name`, if there is one, and deletes its file; a file that can't be deleted stays counted.
    private mutating func drop(_ name: EntryName) {
        guard let size = files.removeValue(forKey: name) else { return }
        if directory.remove(name.fileName) == nil {
            byteCount -= size
        } else if let previous = undeleted.updateValue(size, forKey: name.fileName) {
            byteCount -= previous  // the same file, counted once
        }
    }

    /// A time for a use, later than every use before it.
    private mutating func nextUse() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let (next, overflow) = lastUse.addingReportingOverflow(1)
        lastUse = max(overflow ? lastUse : next, CacheDirectory.nanoseconds(now) ?? lastUse)
        return lastUse
    }
}

/// The name of an entry's file: the first 64 bits of the salted SHA-256 (``CacheFile/digest(_:salt:)``) of its key's
/// URL and of its whole key (``CacheFile/keyBytes(_:salt:)``, which holds digests of the URL and the header fields,
/// never their text), each in 16 lowercase hexadecimal digits, joined by `-`.
///
/// Two keys with one name share a file: the file holds its key, so a lookup for the other key finds a mismatch, a
/// miss. The URL's part makes `removeAll(url:)` a matter of names.
struct EntryName: Hashable {
    /// The hash of the key's URL.
    var url: UInt64
    /// The hash of the whole key.
    var key: UInt64

    /// The name of the file for `key`, whose ``CacheFile/keyBytes(_:salt:)`` with `salt` are `keyBytes`.
    init(_ key: ResponseCache.Key, keyBytes: [UInt8], salt: [UInt8]) {
        url = Self.hash(url: key.url, salt: salt)
        self.key = Self.hash(keyBytes, salt: salt)
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

    /// The hash of a key's URL in the directory whose salt is `salt`.
    static func hash(url: String, salt: [UInt8]) -> UInt64 {
        hash(Array(url.utf8), salt: salt)
    }

    /// The first 64 bits of the SHA-256 of `salt` followed by `bytes`.
    private static func hash(_ bytes: [UInt8], salt: [UInt8]) -> UInt64 {
        CacheFile.digest(bytes, salt: salt).prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// `value` in 16 lowercase hexadecimal digits.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The number that exactly 16 lowercase hexadecimal digits spell, or `nil` for anything else.
    static func number(_ digits: Substring.UTF8View) -> UInt64? {
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
/// process or another, fails to open the directory instead of sharing it; it is released when the storage that holds
/// this goes away, even while a child process forked before still has a copy of the descriptor, or when the process
/// ends.
final class CacheDirectory: Sendable {
    /// A file that can't be opened for a reason of the moment, such as the process being out of descriptors: the
    /// file itself may be fine.
    struct Unavailable: Error {}

    /// The prefix of the name of a file being written, which 16 lowercase hexadecimal digits follow.
    static let temporaryPrefix = ".resourcekit-tmp-"
    /// The name of the file that holds the directory's secret salt, of ``CacheFile/saltLength`` bytes.
    ///
    /// It is neither an entry's name nor a temporary one, so it is never indexed, evicted or deleted as an entry.
    static let saltName = ".resourcekit-salt"
    /// The directory's path, for messages.
    let path: String
    /// Whether the group or others could write the directory before it was opened: another user may have put any
    /// file in it, a salt and entries included.
    let wasShared: Bool
    private let descriptor: Int32

    /// Whether `name` is exactly the name of a file being written: the ``temporaryPrefix`` and 16 hexadecimal digits.
    static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(temporaryPrefix) && EntryName.number(name.utf8.dropFirst(temporaryPrefix.utf8.count)) != nil
    }

    /// Opens the directory at `url`, and locks it unless `locking` is `false`, creating it, private to the user, if it
    /// is missing; an existing one must be the effective user's, and is made private to them (``wasShared`` says
    /// whether it was open to others' writes).
    ///
    /// - Throws: A `CocoaError` when it isn't a `file:` URL, the directory can't be created or opened, belongs to
    ///   another user, or another cache has it open.
    init(_ url: URL, locking: Bool = true) throws {
        guard url.isFileURL else { throw CocoaError(.fileReadUnsupportedScheme, userInfo: [NSURLErrorKey: url]) }
        path = url.path
        let parent = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw Self.failure(.fileWriteUnknown, "The cache's directory can't be created at \(path)", path: path)
        }
        // The one open that isn't `SafeFile`'s: of a directory, whose path may hold a link, but not at its end, where
        // another user could have put one to a directory of this user's, which the cache would then make its own.
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Self.failure(.fileReadUnknown, "The cache's directory can't be opened at \(path)", path: path)
        }
        do {
            wasShared = try Self.makePrivate(descriptor, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        guard !locking || flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = Self.failure(
                .fileLocking, "Another ResponseCache has the directory \(path) open, or it can't be locked", path: path)
            close(descriptor)
            throw failure
        }
    }

    deinit {
        // Unlocked before the close: a child process forked meanwhile, by any thread, has a copy of the descriptor
        // until it execs, and the lock goes with the last copy, not this one, so the next cache would fail to lock.
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Checks that the directory open as `descriptor` belongs to the effective user, and takes every permission from
    /// the group and others; returns whether they could write it.
    private static func makePrivate(_ descriptor: Int32, path: String) throws -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw failure(.fileReadUnknown, "The cache's directory can't be read at \(path)", path: path)
        }
        guard status.st_uid == geteuid() else {
            throw CocoaError(
                .fileReadNoPermission,
                userInfo: [
                    NSFilePathErrorKey: path,
                    NSLocalizedDescriptionKey: "The cache's directory \(path) belongs to another user (uid "
                        + "\(status.st_uid)); a ResponseCache only uses a directory of its own user.",
                ])
        }
        if status.st_mode & 0o077 != 0, fchmod(descriptor, 0o700) != 0 {
            throw failure(.fileWriteNoPermission, "The cache's directory can't be made private at \(path)", path: path)
        }
        return status.st_mode & 0o022 != 0
    }

    /// The names in the directory.
    ///
    /// - Throws: A `CocoaError` when it can't be listed.
    func names() throws -> [String] {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0, let stream = fdopendir(copy) else {
            let failure = Self.failure(.fileReadUnknown, "The cache's directory can't be listed at \(path)", path: path)
            if copy >= 0 { close(copy) }
            throw failure
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

    /// The size and modification time (nanoseconds since 1970, `Int64.min` for a time out of their range, so that it
    /// counts as the oldest) of the regular file `name`; `nil` when it is missing or something else, such as a link.
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
        return (size, Self.nanoseconds(modified) ?? .min)
    }

    /// `time` in nanoseconds since 1970, or `nil` when that is out of `Int64`'s range (before 1677 or after 2262).
    static func nanoseconds(_ time: timespec) -> Int64? {
        let (seconds, overflow) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowAgain) = seconds.addingReportingOverflow(Int64(time.tv_nsec))
        return overflow || overflowAgain ? nil : total
    }

    /// Reads the regular file `name` with `read`, which gets its descriptor and size, then sets its modification time
    /// to `used`; returns what `read` returned and the file's size.
    ///
    /// - Throws: ``Unavailable`` when the process can't open a file now, ``CacheFile/Corrupt`` when the file can't be
    ///   opened or isn't a regular file of the user's, private to them (``SafeFile``), or what `read` throws.
    func read<Result>(_ name: String, usedAt used: Int64, _ read: (Int32, Int) throws -> Result) throws -> (Result, Int)
    {
        let file: Int32
        let status: stat
        do throws(SafeFile.Refusal) {
            (file, status) = try SafeFile.open(name, in: descriptor, O_RDONLY, owner: .user)
        } catch .unavailable {
            throw Unavailable()
        } catch {
            throw CacheFile.Corrupt()
        }
        defer { close(file) }
        guard let size = Int(exactly: status.st_size) else { throw CacheFile.Corrupt() }
        let result = try read(file, size)
        Self.setModified(file, to: used)
        return (result, size)
    }

    /// Writes `head` then `body` to a new file, private to the user, with the modification time `used`, and renames it
    /// to `name`, replacing what was there; on failure nothing is left behind.
    ///
    /// - Throws: ``CacheFile/Corrupt`` when the file can't be created, written or renamed.
    func write(_ name: String, _ head: [UInt8], _ body: Data, usedAt used: Int64) throws {
        let temporary = Self.temporaryPrefix + EntryName.hex(UInt64.random(in: .min ... .max))
        guard let file = try? SafeFile.open(temporary, in: descriptor, O_WRONLY | O_CREAT | O_EXCL, owner: .user).0
        else { throw CacheFile.Corrupt() }
        let written =
            head.withUnsafeBytes { writeAll(file, $0) } && body.withUnsafeBytes { writeAll(file, $0) }
            && Self.setModified(file, to: used)
        guard close(file) == 0, written, renameat(descriptor, temporary, descriptor, name) == 0 else {
            unlinkat(descriptor, temporary, 0)
            throw CacheFile.Corrupt()
        }
    }

    /// The salt in ``saltName``, or `nil` when that isn't a regular file of the user's, private to them, of exactly
    /// ``CacheFile/saltLength`` bytes (missing, short, long, a link, another user's, or unreadable).
    func salt() -> [UInt8]? {
        let salt = try? SafeFile.contents(of: Self.saltName, in: descriptor, owner: .user, limit: CacheFile.saltLength)
        return salt?.count == CacheFile.saltLength ? salt.map { [UInt8]($0) } : nil
    }

    /// Writes a new salt of ``CacheFile/saltLength`` random bytes to ``saltName``, private to the user, under a
    /// temporary name renamed into place, and returns it.
    ///
    /// - Throws: A `CocoaError` when it can't be written.
    func replaceSalt() throws -> [UInt8] {
        let salt = CacheFile.randomBytes(CacheFile.saltLength)
        do {
            try write(Self.saltName, salt, Data(), usedAt: 0)
        } catch {
            throw Self.failure(.fileWriteUnknown, "The cache's salt can't be written in \(path)", path: path)
        }
        return salt
    }

    /// Deletes the file `name`; returns why it couldn't be, or `nil` when it is gone.
    @discardableResult
    func remove(_ name: String) -> String? {
        guard unlinkat(descriptor, name, 0) != 0, errno != ENOENT else { return nil }
        return String(cString: strerror(errno))
    }

    /// Empties the file `name`, which couldn't be deleted, so that no later read takes it for an entry: unlike
    /// deleting, this needs write permission on the file, not on the directory.
    func empty(_ name: String) {
        if let file = try? SafeFile.open(name, in: descriptor, O_WRONLY | O_TRUNC, owner: .anyone) {
            close(file.descriptor)
        }
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
