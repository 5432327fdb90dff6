import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens every file ResourceKit opens, as someone else may have put something at its name.
///
/// That may be another local user in a shared directory, a link, or a FIFO that would block the open until a writer
/// comes. The rules are in <doc:FilesOnDisk>.
///
/// A file is opened with `O_NONBLOCK` (a FIFO or a device never holds the open) and `O_CLOEXEC`, with `O_NOFOLLOW`
/// unless it is a file the caller named (an upload), then checked on its descriptor with `fstat`: a regular file, and,
/// for a file ResourceKit wrote itself, the effective user's with no permission for the group or others. The caller
/// does the work that may wait on a disk off Swift's cooperative pool, with ``offCooperativePool(_:)``.
public enum SafeFile {
    /// Why a file wasn't opened, or was closed again at once.
    public enum Refusal: Error, Equatable {
        /// Nothing is at the name.
        case missing
        /// Something is at the name, and the open asked to create it exclusively.
        case exists
        /// The process can't open a file at the moment (out of descriptors or memory, interrupted): the file itself
        /// may be fine.
        case unavailable
        /// A directory.
        case directory
        /// A symbolic link, a FIFO, a device or a socket: anything but a regular file or a directory.
        case notRegular
        /// Another user's, or open to the group or others: not a file this user's ResourceKit wrote.
        case notPrivate
        /// Larger than the most bytes the reader takes.
        case tooLarge
        /// Another failure, with its `errno`.
        case failed(Int32)
    }

    /// Whose file it must be.
    public enum Owner {
        /// Anyone's: a file the caller named, such as an upload or a `file:` URL to load.
        case anyone
        /// The effective user's, and neither readable nor writable by the group or others: a file ResourceKit wrote,
        /// created `0600`.
        case user
    }

    /// Opens `name` and checks what it is; returns the descriptor, which the caller closes, and the file's status.
    ///
    /// The name is relative to the directory open as `directory` (or to the working directory), the flags are `flags`
    /// and `O_NONBLOCK | O_CLOEXEC`, and `O_NOFOLLOW` unless `followingLinks`; a file it creates gets `0600`.
    ///
    /// - Throws: ``Refusal`` when it can't be opened, or isn't a regular file of `owner` (it is closed again).
    public static func open(
        _ name: String, in directory: Int32 = AT_FDCWD, _ flags: Int32, followingLinks: Bool = false, owner: Owner
    ) throws(Refusal) -> (descriptor: Int32, status: stat) {
        let flags = flags | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW)
        let descriptor = openat(directory, name, flags, 0o600)
        guard descriptor >= 0 else { throw refusal(errno) }
        // A file this open made is `0600` whatever the umask: a stricter one would make it fail the check below.
        if flags & (O_CREAT | O_EXCL) == O_CREAT | O_EXCL { fchmod(descriptor, 0o600) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = refusal(errno)
            close(descriptor)
            throw failure
        }
        if let problem = check(status, owner: owner) {
            close(descriptor)
            throw problem
        }
        return (descriptor, status)
    }

    /// Why a file of `status` can't be used as a file of `owner`, or `nil` when it can.
    public static func check(_ status: stat, owner: Owner) -> Refusal? {
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .directory
        default: return .notRegular
        }
        guard owner == .user else { return nil }
        return status.st_uid == geteuid() && status.st_mode & 0o777 == 0o600 ? nil : .notPrivate
    }

    /// Whether a user other than the effective one and root can rename or remove a file in the directory of `status`:
    /// it is theirs, or the group or others can write it and it isn't sticky (`S_ISVTX`).
    public static func othersCanRename(in status: stat) -> Bool {
        let owner = status.st_uid == geteuid() || status.st_uid == 0
        return !owner || (status.st_mode & 0o022 != 0 && status.st_mode & S_ISVTX == 0)
    }

    /// The bytes of the regular file `name`, opened as ``open(_:in:_:followingLinks:owner:)`` does, at most `limit`.
    ///
    /// The buffer starts at the file's size, which is at most `limit`, and grows only as more bytes arrive; one byte
    /// more than the size is asked for, so a file that grew past `limit` since its `fstat` fails too.
    ///
    /// - Throws: ``Refusal``: ``Refusal/tooLarge`` for a file over `limit`.
    public static func contents(
        of name: String, in directory: Int32 = AT_FDCWD, followingLinks: Bool = false, owner: Owner,
        limit: Int = .max
    ) throws(Refusal) -> Data {
        let (descriptor, status) = try open(name, in: directory, O_RDONLY, followingLinks: followingLinks, owner: owner)
        defer { close(descriptor) }
        guard let size = Int(exactly: status.st_size), size <= limit else { throw .tooLarge }
        var data = Data(count: size == limit ? size : size + 1)
        var done = 0
        while true {
            if done == data.count {
                guard data.count <= limit else { throw .tooLarge }
                data.count += min(65_536, limit - data.count + 1)
            }
            let result = data.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { read(descriptor, $0 + done, buffer.count - done) } ?? 0
            }
            if result < 0 && errno == EINTR { continue }
            guard result >= 0 else { throw refusal(errno) }
            guard result > 0 else { break }
            done += result
        }
        guard done <= limit else { throw .tooLarge }
        data.count = done
        return data
    }

    /// The refusal an `errno` of `open(2)` or `read(2)` stands for.
    private static func refusal(_ code: Int32) -> Refusal {
        switch code {
        case ENOENT: .missing
        case EEXIST: .exists
        case EISDIR: .directory
        // A link under `O_NOFOLLOW`, a FIFO without a reader opened for writing.
        case ELOOP, ENXIO, EMLINK: .notRegular
        case EMFILE, ENFILE, ENOMEM, EINTR, EAGAIN: .unavailable
        default: .failed(code)
        }
    }
}

/// Runs `work` on a global Dispatch queue, off Swift's cooperative pool, and returns what it returns.
///
/// It is for work with files, which may wait on a disk or, opened by mistake, on a FIFO, while the pool's few threads
/// serve every task of the process: a transport or middleware of yours that reads a file uses it too, as
/// ResourceKitTesting does for its fixtures.
public func offCooperativePool<Result: Sendable>(
    _ work: @escaping @Sendable () throws -> Result
) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            do {
                continuation.resume(returning: try work())
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
