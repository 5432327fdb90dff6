import Foundation

#if AsyncHTTPClient
    import NIOCore
    import NIOFoundationCompat
#endif

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
struct ArrivingBody {
    private(set) var data = Data()
    private var file: PartialFile?
    private let maxBodySize: Int?
    /// The most bytes kept in memory; the rest of a download's error body is dropped.
    private let keeps: Int
    private var counter: ProgressCounter
    /// The bytes ``data`` has room for, as far as ``reserve(_:)`` made it.
    private var reserved = 0
    #if AsyncHTTPClient
        /// AsyncHTTPClient's buffers of a body kept in memory, gathered as its own `collect(upTo:)` does: in a buffer
        /// that grows in place where the allocator can, handed over without a copy at the end.
        private var buffers: ByteBuffer?
    #endif

    /// A body gathered in memory, without a limit or progress.
    init() {
        maxBodySize = nil
        keeps = .max
        counter = ProgressCounter(.download, expected: nil, receiver: nil)
    }

    /// The body of a response with `status` for a load with `maxBodySize` and `transfer`.
    ///
    /// - Parameters:
    ///   - status: The response's status code; a download's body goes to its file only for an accepted one.
    ///   - expectedLength: The length the response announces, when it is the length of the bytes that will arrive
    ///     (not for a body the client inflates); a length over the limit fails at once.
    ///   - maxBodySize: The load's limit on the body.
    ///   - transfer: The load's transfer, if it has one.
    /// - Throws: ``WebserviceError/Reason/bodyTooLarge(limit:)``, or the `URLError` of a file that can't be created.
    init(status: Int?, expectedLength: Int64?, maxBodySize: Int?, for transfer: Transfer?) throws {
        if let maxBodySize, let expectedLength, expectedLength > Int64(maxBodySize) {
            throw WebserviceError(.bodyTooLarge(limit: maxBodySize))
        }
        self.maxBodySize = maxBodySize
        if let destination = transfer?.destination {
            if let status, transfer?.acceptableStatusCodes.contains(status) == true {
                file = try PartialFile(for: destination)
                keeps = .max
            } else {
                keeps = Transfer.errorBodyLimit
            }
        } else {
            keeps = .max
        }
        counter = ProgressCounter(.download, expected: expectedLength, receiver: transfer?.progress)
    }

    /// Takes the next bytes of the body; returns the progress report that is due, if one is.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws -> DueProgress? {
        if let maxBodySize, counter.bytes + Int64(bytes.count) > Int64(maxBodySize) {
            throw WebserviceError(.bodyTooLarge(limit: maxBodySize))
        }
        #if AsyncHTTPClient
            if let gathered = buffers {
                data = Data(buffer: gathered)
                buffers = nil
            }
        #endif
        if let file {
            try file.append(bytes)
        } else if data.count < keeps, let start = bytes.baseAddress {
            let count = min(bytes.count, keeps - data.count)
            reserve(data.count + count)
            data.append(start.assumingMemoryBound(to: UInt8.self), count: count)
        }
        return counter.add(bytes.count)
    }

    /// Makes room for `needed` bytes in memory, growing by doubling.
    ///
    /// `Data` alone grows to the exact size, so a body of many chunks would be copied again with each. The room never
    /// passes the length the response announced or the limit unless the bytes that arrived do: a header alone never
    /// makes it allocate.
    private mutating func reserve(_ needed: Int) {
        guard needed > reserved else { return }
        var room = max(needed, reserved * 2, 65_536)
        if let expected = counter.expected, expected >= Int64(needed) { room = min(room, Int(clamping: expected)) }
        if let maxBodySize { room = min(room, max(needed, maxBodySize)) }
        data.reserveCapacity(room)
        reserved = room
    }

    /// ``append(_:)`` for a chunk as its transport handed it over: for a body kept in memory, a first `Data` is kept
    /// as it is, and AsyncHTTPClient's buffers are gathered as they are; other bytes are copied as they arrive.
    mutating func append(_ chunk: Chunk) throws -> DueProgress? {
        guard file == nil, data.isEmpty, keeps == .max else { return try chunk.withUnsafeBytes { try append($0) } }
        if let maxBodySize, counter.bytes + Int64(chunk.count) > Int64(maxBodySize) {
            throw WebserviceError(.bodyTooLarge(limit: maxBodySize))
        }
        switch chunk {
        case .data(let first):
            #if AsyncHTTPClient
                guard buffers == nil else { return try first.withUnsafeBytes { try append($0) } }
            #endif
            data = first
        #if AsyncHTTPClient
            case .buffer(var buffer):
                // A `ByteBuffer` holds at most 4 GiB; a body that grows past half of that goes on in `Data`.
                guard counter.bytes + Int64(buffer.readableBytes) <= Int64(UInt32.max / 2) else {
                    return try buffer.withUnsafeReadableBytes { try append($0) }
                }
                if buffers == nil { buffers = buffer } else { buffers?.writeBuffer(&buffer) }
        #endif
        }
        return counter.add(chunk.count)
    }

    /// Ends the body: a download's file is closed, for the load to move into place once it has succeeded.
    ///
    /// Returns the body in memory (empty for a download), the last progress report, if one is due, and the download's
    /// whole file, if there is one, which its receiver moves into place or removes.
    mutating func finish() throws -> (Data, DueProgress?, ArrivedFile?) {
        // Ended before it closes: a close that fails has removed the file already, and an `abandon` after it must not
        // close the descriptor, which may belong to another file by then, a second time.
        let file = self.file
        self.file = nil
        #if AsyncHTTPClient
            if let buffers { return (Data(buffer: buffers), counter.end(), try file?.close()) }
        #endif
        return (data, counter.end(), try file?.close())
    }

    /// Ends a body that won't be used: a download's temporary file is removed.
    mutating func abandon() {
        file?.remove()
        file = nil
    }
}

/// A download's body on its way to disk: a new temporary file in the destination's directory, which replaces the
/// destination only once the whole body is in it, so the destination never holds part of a body.
///
/// Its owner ends it exactly once, with ``close()`` or ``remove()``.
struct PartialFile: Sendable {
    private let destination: URL
    private let temporary: URL
    private let descriptor: Int32

    /// Creates the temporary file for `destination`, which must be a `file:` URL in a directory that exists.
    init(for destination: URL) throws {
        guard destination.isFileURL else {
            throw URLError(
                .cannotCreateFile,
                userInfo: [NSLocalizedDescriptionKey: "A download's destination must be a file: URL."])
        }
        let directory = destination.deletingLastPathComponent()
        // At most 200 bytes of the destination's name, so the temporary name stays within the 255 a name may have.
        var stem = ""
        for character in destination.lastPathComponent {
            guard stem.utf8.count + character.utf8.count <= 200 else { break }
            stem.append(character)
        }
        let name = ".\(stem).\(UInt64.random(in: .min ... .max)).download"
        self.destination = destination
        temporary = directory.appendingPathComponent(name)
        descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Self.failure(.cannotCreateFile, "The download's file can't be created in \(directory.path)")
        }
    }

    /// Appends `bytes` to the file.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard writeAll(descriptor, bytes) else {
            throw Self.failure(.cannotWriteToFile, "The download's file can't be written")
        }
    }

    /// Closes the file, which holds the whole body, for the load to move into place once it has succeeded.
    func close() throws -> ArrivedFile {
        guard systemClose(descriptor) == 0 else {
            let error = Self.failure(.cannotWriteToFile, "The download's file can't be written")
            unlink(temporary.path)
            throw error
        }
        return ArrivedFile(temporary: temporary, destination: destination)
    }

    /// Closes and removes the file.
    func remove() {
        systemClose(descriptor)
        unlink(temporary.path)
    }

    fileprivate static func failure(_ code: URLError.Code, _ reason: String) -> URLError {
        let cause = String(cString: strerror(errno))
        return URLError(code, userInfo: [NSLocalizedDescriptionKey: "\(reason): \(cause)."])
    }
}

/// `close(2)`, by a name that ``PartialFile/close()`` doesn't hide.
@discardableResult private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}

/// A download's whole body in its closed temporary file, which replaces the destination only once the load has
/// succeeded: a middleware that fails the load, a timeout or a cancellation after the body arrived leave the
/// destination as it was.
struct ArrivedFile: Sendable {
    let temporary: URL
    let destination: URL

    /// Moves the file to the destination, replacing what was there.
    func moveIntoPlace() throws {
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = "The download can't be moved to \(destination.lastPathComponent)"
            let error = PartialFile.failure(.cannotMoveFile, reason)
            unlink(temporary.path)
            throw error
        }
    }

    /// Removes the file.
    func remove() {
        unlink(temporary.path)
    }
}

/// Where the transport leaves a load's ``ArrivedFile`` for ``Webservice`` to move into place once the load has
/// succeeded, or to remove; one for each download.
///
/// A file that arrives after the load ended (a transport that answered after the timeout) is removed at once, and one
/// that arrives for a retry replaces, and removes, the last.
actor ArrivedFiles {
    private var file: ArrivedFile?
    private var ended = false

    /// Keeps `arrived` for the load's end.
    func keep(_ arrived: ArrivedFile) {
        file?.remove()
        file = nil
        if ended {
            arrived.remove()
        } else {
            file = arrived
        }
    }

    /// Ends the load that succeeded: its file, if one arrived, takes the destination's place.
    func commit() throws {
        ended = true
        let arrived = file
        file = nil
        try arrived?.moveIntoPlace()
    }

    /// Ends the load that failed: its file, if one arrived, is removed.
    func discard() {
        ended = true
        file?.remove()
        file = nil
    }
}
