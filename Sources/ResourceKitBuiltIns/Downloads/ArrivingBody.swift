import Foundation
import ResourceKitCore
internal import ResourceKitSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response body as it arrives: gathered in memory, or, for a download's accepted response, written to a temporary
/// file next to the destination, which takes the destination's place once the load has succeeded (``ArrivedFile``).
///
/// The memory body grows with the bytes that arrive, never from what `Content-Length` claims; a body that passes the
/// load's limit throws ``WebserviceError/Reason/bodyTooLarge(limit:)``, whether it goes to memory or to disk. A download's
/// error body is kept up to ``Transfer/errorBodyLimit`` bytes, for the error to show.
///
/// A download's file holds exactly the length it was announced, when one was: a body that passes it throws
/// ``overrun`` at once, and one that ends short of it breaks off (``finish()``), never a shorter file.
struct ArrivingBody {
    private var memory = GrowingData()
    /// The body kept in memory.
    var data: Data { memory.data }
    private var file: PartialFile?
    /// The bytes a download's file ends with, counted from the start of the whole file: the resumed range's whole
    /// length, or the `Content-Length`; `nil` when unknown, and for a body in memory.
    private var length: Int64?
    private let maxBodySize: Int?
    /// The most bytes kept in memory; the rest of a download's error body is dropped.
    private let keeps: Int
    private var counter: ProgressCounter

    /// A body gathered in memory, without a limit or progress.
    init() {
        maxBodySize = nil
        keeps = .max
        counter = ProgressCounter(isUpload: false, expected: nil, receiver: nil)
    }

    /// The body of a response with `status` for a load with `maxBodySize` and `transfer`.
    ///
    /// - Parameters:
    ///   - status: The response's status code; a download's body goes to its file only for an accepted one, or for
    ///     the `206` that resumes it.
    ///   - ranged: Whether the request asked for a range: without one, a `206` is not accepted, its body only part of
    ///     a file.
    ///   - expectedLength: The length the response announces, when it is the length of the bytes that will arrive
    ///     (not for a body the client inflates); a length over the limit fails at once.
    ///   - maxBodySize: The load's limit on the body; a resumed body counts from the offset it resumes at.
    ///   - transfer: The load's transfer, if it has one.
    ///   - head: The response, for a download that may resume (``Transfer/resume``): see ``Resume/file(for:to:accepted:)``.
    /// - Throws: ``WebserviceError/Reason/bodyTooLarge(limit:)``, the `URLError` of a file that can't be created, or
    ///   ``ResumeRefused`` for a response that doesn't resume the partial file.
    init(
        status: Int?, ranged: Bool = false, expectedLength: Int64?, maxBodySize: Int?, for transfer: Transfer?,
        head: Response? = nil
    ) throws {
        if let maxBodySize, let expectedLength, expectedLength > Int64(maxBodySize) {
            throw WebserviceError(.bodyTooLarge(limit: maxBodySize))
        }
        self.maxBodySize = maxBodySize
        var file: PartialFile?
        var start: Int64 = 0
        var expected = expectedLength
        if let transfer, let destination = transfer.destination {
            let accepted = status.map { transfer.acceptableStatusCodes.contains($0) && ($0 != 206 || ranged) } ?? false
            if let resume = transfer.resume, let head,
                let resumed = try resume.file(for: head, to: destination, accepted: accepted)
            {
                (file, start) = (resumed.file, resumed.offset)
                if start > 0 { expected = resumed.total }
            } else if accepted {
                file = try PartialFile(for: destination)
            }
            keeps = file == nil ? Transfer.errorBodyLimit : .max
        } else {
            keeps = .max
        }
        if let maxBodySize, let expected, expected > Int64(maxBodySize) {
            file?.remove()
            throw WebserviceError(.bodyTooLarge(limit: maxBodySize))
        }
        self.file = file
        length = file == nil ? nil : expected
        counter = ProgressCounter(isUpload: false, expected: expected, receiver: transfer?.progress, from: start)
    }

    /// Takes the next bytes of the body; returns the progress report that is due, if one is.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws -> DueProgress? {
        if let maxBodySize, counter.bytes + Int64(bytes.count) > Int64(maxBodySize) {
            throw WebserviceError(.bodyTooLarge(limit: maxBodySize))
        }
        if let length, counter.bytes + Int64(bytes.count) > length { throw Self.overrun }
        if let file {
            try file.append(bytes)
        } else if data.count < keeps {
            let kept = UnsafeRawBufferPointer(rebasing: bytes.prefix(keeps - data.count))
            memory.append(kept, expected: counter.expected, limit: maxBodySize)
        }
        return counter.add(bytes.count)
    }

    /// ``append(_:)`` for a chunk as its transport handed it over: for a body kept in memory, a first `Data` is kept
    /// as it is; other bytes are copied as they arrive.
    mutating func append(_ chunk: ResponseBody.Chunk) throws -> DueProgress? {
        guard case .data(let first) = chunk, file == nil, data.isEmpty, keeps == .max else {
            return try chunk.withUnsafeBytes { try append($0) }
        }
        if let maxBodySize, counter.bytes + Int64(first.count) > Int64(maxBodySize) {
            throw WebserviceError(.bodyTooLarge(limit: maxBodySize))
        }
        memory.data = first
        return counter.add(first.count)
    }

    /// A download's body that passes the length it was announced: the server's fault, so its file is removed.
    static var overrun: URLError {
        URLError(
            .badServerResponse,
            userInfo: [NSLocalizedDescriptionKey: "The response's body is longer than it announced."])
    }

    /// Ends the body: a download's file is closed, for the load to move into place once it has succeeded.
    ///
    /// Returns the body in memory (empty for a download), the last progress report, if one is due, and the download's
    /// whole file, if there is one, which its receiver moves into place or removes.
    ///
    /// - Throws: `URLError(.networkConnectionLost)` for a download's body that ended short of its announced length, as
    ///   for a connection that broke off: a resumable file stays for the next attempt to resume (``breakOff(_:)``).
    mutating func finish() throws -> (Data, DueProgress?, ResponseBody?) {
        if file != nil, let length, counter.bytes < length {
            let reason = "The response's body ended after \(counter.bytes) of the \(length) bytes it announced."
            let error = URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: reason])
            breakOff(error)
            throw error
        }
        // Ended before it closes: a close that fails has removed the file already, and an `abandon` after it must not
        // close the descriptor, which may belong to another file by then, a second time.
        let file = self.file
        self.file = nil
        return (data, counter.end(), try file?.close())
    }

    /// Ends a body that won't be used: a download's temporary file is removed.
    mutating func abandon() {
        file?.remove()
        file = nil
    }

    /// Ends a body that broke off with `error` before its end: a resumable download's partial file stays for the next
    /// attempt to resume (``PartialFile/keep()``), unless the body itself was at fault: too large, longer than it
    /// announced or not writable.
    mutating func breakOff(_ error: any Error) {
        let ownFault =
            (error as? WebserviceError).map { if case .bodyTooLarge = $0.reason { true } else { false } } == true
            || ((error as? URLError) ?? ((error as? WebserviceError)?.underlyingError as? URLError)).map {
                [.cannotWriteToFile, .cannotCreateFile, .badServerResponse].contains($0.code)
            } == true
        if ownFault { file?.remove() } else { file?.keep() }
        file = nil
    }
}

/// A download's body on its way to disk: a file in the destination's directory, which replaces the destination only
/// once the whole body is in it, so the destination never holds part of a body.
///
/// A load that doesn't resume writes a new temporary file of a random name. A `GET` download whose response can be
/// resumed writes the destination's one partial file instead (``init(resumableFor:)``), beside its ``ResumeRecord``,
/// under an exclusive lock: a body that breaks off leaves both for the next attempt to resume (``keep()``). Files are
/// created `0600`, never through a symbolic link, and opened as every file is (``SafeFile``). Its owner ends it exactly
/// once, with ``close()``, ``keep()`` or ``remove()``.
struct PartialFile: Sendable {
    private let destination: URL
    private let temporary: URL
    private let descriptor: Int32
    /// The resumable file's record, `nil` for a temporary file of a random name.
    private let record: URL?

    /// Creates a new temporary file of a random name for `destination`, which must be a `file:` URL in a directory
    /// that exists.
    init(for destination: URL) throws {
        let directory = try Self.directory(of: destination)
        let name = ".\(Self.stem(of: destination)).\(UInt64.random(in: .min ... .max)).download"
        self.destination = destination
        temporary = directory.appendingPathComponent(name)
        record = nil
        guard let created = try? SafeFile.open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, owner: .user) else {
            throw Self.failure(.cannotCreateFile, "The download's file can't be created in \(directory.path)")
        }
        descriptor = created.descriptor
    }

    /// Claims the partial file of `destination` (`.<name>.partial`), creating it if needed, with an exclusive lock
    /// that lasts until the file is ended; `nil` when another load holds it, it has another link (a hard link to
    /// another file), or it can't be opened.
    ///
    /// Only the user's own file, private to them, is claimed: anything else at the name (another user's file, one
    /// open to others, a link, a FIFO) is removed and a new file made in its place, or, where the directory doesn't
    /// let it be removed, the result is `nil`. The lock is taken without waiting, then checked to be on the file the
    /// name still leads to: a load that ended meanwhile may have renamed or removed the file it opened.
    ///
    /// It opens files: call it off the cooperative pool.
    init?(resumableFor destination: URL) {
        guard let directory = try? Self.directory(of: destination) else { return nil }
        let (file, record) = Self.resumableNames(of: destination, in: directory)
        let descriptor: Int32
        let opened: stat
        do throws(SafeFile.Refusal) {
            (descriptor, opened) = try SafeFile.open(file.path, O_WRONLY | O_APPEND | O_CREAT, owner: .user)
        } catch .notPrivate, .notRegular {
            guard unlink(file.path) == 0,
                let made = try? SafeFile.open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL, owner: .user)
            else { return nil }
            (descriptor, opened) = made
        } catch {
            return nil
        }
        var named = stat()
        // A file of another link is another file's too: it is never emptied or written.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, lstat(file.path, &named) == 0,
            opened.st_dev == named.st_dev, opened.st_ino == named.st_ino, opened.st_nlink == 1
        else {
            systemClose(descriptor)
            return nil
        }
        self.destination = destination
        self.temporary = file
        self.record = record
        self.descriptor = descriptor
    }

    /// The partial file and its record for `destination`, in `directory`.
    static func resumableNames(of destination: URL, in directory: URL) -> (file: URL, record: URL) {
        let stem = stem(of: destination)
        return (
            directory.appendingPathComponent(".\(stem).partial"), directory.appendingPathComponent(".\(stem).resume")
        )
    }

    /// The directory of `destination`, which must be a `file:` URL.
    private static func directory(of destination: URL) throws -> URL {
        guard destination.isFileURL else {
            throw URLError(
                .cannotCreateFile,
                userInfo: [NSLocalizedDescriptionKey: "A download's destination must be a file: URL."])
        }
        return destination.deletingLastPathComponent()
    }

    /// At most 200 bytes of the destination's name, so a name made from it stays within the 255 a name may have.
    private static func stem(of destination: URL) -> String {
        var stem = ""
        for character in destination.lastPathComponent {
            guard stem.utf8.count + character.utf8.count <= 200 else { break }
            stem.append(character)
        }
        return stem
    }

    /// The bytes in the file.
    var size: Int64? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int64(status.st_size) : nil
    }

    /// The record beside a resumable file, if it has a readable one.
    var resumeRecord: ResumeRecord? {
        record.flatMap(ResumeRecord.read)
    }

    /// Empties a resumable file and writes `resume`, the response its body will come from, beside it.
    func restart(as resume: ResumeRecord) throws {
        guard let record, ftruncate(descriptor, 0) == 0 else {
            throw Self.failure(.cannotWriteToFile, "The download's file can't be written")
        }
        try resume.write(to: record)
    }

    /// Appends `bytes` to the file.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard writeAll(descriptor, bytes) else {
            throw Self.failure(.cannotWriteToFile, "The download's file can't be written")
        }
    }

    /// Closes the file, which holds the whole body, for the load to move into place once it has succeeded.
    ///
    /// A resumable file first takes a temporary name of its own, under its lock, and its record goes: no other load
    /// claims it while it waits for the load's end.
    func close() throws -> ResponseBody {
        var arrived = temporary
        if let record {
            let directory = temporary.deletingLastPathComponent()
            arrived = directory.appendingPathComponent(
                ".\(Self.stem(of: destination)).\(UInt64.random(in: .min ... .max)).download")
            guard rename(temporary.path, arrived.path) == 0 else {
                let error = Self.failure(.cannotWriteToFile, "The download's file can't be written")
                remove()
                throw error
            }
            unlink(record.path)
        }
        guard systemClose(descriptor) == 0 else {
            let error = Self.failure(.cannotWriteToFile, "The download's file can't be written")
            unlink(arrived.path)
            throw error
        }
        return ResponseBody(ArrivedFile(temporary: arrived, destination: destination))
    }

    /// Closes a resumable file that holds part of a body, and keeps it with its record for the next attempt to
    /// resume; removes an empty one, or a temporary file of a random name.
    func keep() {
        guard record != nil, let size, size > 0 else { return remove() }
        systemClose(descriptor)
    }

    /// Removes the file, and a resumable file's record, and closes it.
    func remove() {
        unlink(temporary.path)
        if let record { unlink(record.path) }
        systemClose(descriptor)
    }

    /// Removes the partial file of `destination` and its record, if either is there, unless another load holds them.
    static func removeResumable(for destination: URL) {
        guard let directory = try? directory(of: destination) else { return }
        let (file, record) = resumableNames(of: destination, in: directory)
        var status = stat()
        guard lstat(file.path, &status) == 0 || lstat(record.path, &status) == 0 else { return }
        PartialFile(resumableFor: destination)?.remove()
    }

    /// A `URLError` with `code`, saying `reason` and why the system refused.
    static func failure(_ code: URLError.Code, _ reason: String) -> URLError {
        let cause = String(cString: strerror(errno))
        return URLError(code, userInfo: [NSLocalizedDescriptionKey: "\(reason): \(cause)."])
    }
}

/// `close(2)`, by a name that a type's own `close`, such as ``PartialFile/close()``, doesn't hide.
@discardableResult func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
