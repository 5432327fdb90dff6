#if canImport(FoundationNetworking)
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// The chunks of a stream's body that its reader is too far behind to keep in memory, in a temporary file that has
    /// no name: written at its end on the writer's thread, read from its start off the cooperative pool.
    ///
    /// The file is made with `mkstemp` (`O_EXCL`, mode 0600, so no file or link another user placed is ever opened)
    /// and unlinked at once, so no other process can open it and it is gone when it is closed, also after a crash.
    struct Spool {
        /// The most bytes a spool holds for its reader before the stream fails, by default.
        static let limit: Int64 = 1 << 30

        private let descriptor: Int32
        /// The most bytes it holds for its reader.
        private let limit: Int64
        /// Where the next chunk is written.
        private var end: Int64 = 0
        /// Where the reader takes the next bytes.
        private var start: Int64 = 0

        /// The bytes written that the reader hasn't taken.
        var unread: Int64 { end - start }

        /// A new, empty spool in the temporary directory (`TMPDIR`) that holds at most `limit` bytes for its reader.
        init(limit: Int64 = Spool.limit) throws {
            self.limit = limit
            var template = Array(
                FileManager.default.temporaryDirectory.appendingPathComponent(".resourcekit-stream-XXXXXX").path
                    .utf8CString)
            descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { throw Self.failure("made", errno) }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }

        /// Writes `data` after the bytes already written.
        mutating func append(_ data: Data) throws {
            guard unread + Int64(data.count) <= limit else {
                throw BodyChannel.backlogExceeded(ByteCountFormatter.string(fromByteCount: limit, countStyle: .binary))
            }
            var written = 0
            while written < data.count {
                let count = data.withUnsafeBytes { bytes in
                    pwrite(descriptor, bytes.baseAddress! + written, data.count - written, off_t(end) + off_t(written))
                }
                guard count > 0 else { throw Self.failure("written", errno) }
                written += count
            }
            end += Int64(written)
        }

        /// Where the reader's next bytes are, at most `most` of them, to read with ``read(_:)`` outside the lock.
        func next(atMost most: Int) -> Piece {
            Piece(descriptor: descriptor, offset: start, count: Int(min(unread, Int64(most))))
        }

        /// Marks `count` bytes taken; once the reader took all, the next chunk is written at the start again.
        mutating func took(_ count: Int) {
            start += Int64(count)
            if start == end { (start, end) = (0, 0) }
        }

        /// Closes the file, which frees its space.
        func remove() {
            close(descriptor)
        }

        /// A range of the spool's bytes; its bytes don't change until the reader took them.
        struct Piece: Sendable {
            let descriptor: Int32
            let offset: Int64
            let count: Int

            /// The bytes, read with blocking calls: on a Dispatch thread, never on the cooperative pool.
            func read() throws -> Data {
                var data = Data(count: count)
                var done = 0
                try data.withUnsafeMutableBytes { bytes in
                    while done < count {
                        let read = pread(
                            descriptor, bytes.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                        guard read > 0 else { throw Spool.failure("read", read < 0 ? errno : EIO) }
                        done += read
                    }
                }
                return data
            }
        }

        /// The error of a spool that couldn't be made, written or read.
        fileprivate static func failure(_ what: String, _ code: Int32) -> URLError {
            URLError(
                .cannotWriteToFile,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The temporary file that holds what a stream's reader is behind couldn't be \(what): "
                        + String(cString: strerror(code)) + "."
                ])
        }
    }
#endif
