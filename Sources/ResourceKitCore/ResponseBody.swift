import Foundation

/// A response body as a transport delivers it: whole, or as chunks while they arrive.
///
/// A ``Transport`` returns it with the response's head from ``Transport/send(_:context:)``; ``Webservice`` then reads
/// it once, enforcing the body limit, saving a download to its file and reporting progress as the chunks arrive, the
/// same way for every transport. A transport that wraps another reads its ``chunks``, or the whole body with
/// ``collect(upTo:)``, and returns it or a body made of what it read. See <doc:Transports>.
///
/// ```swift
/// let (head, body) = try await inner.send(request, context: context)
/// return (head, ResponseBody(body.chunks.map { chunk in log(chunk.count); return chunk }))
/// ```
public struct ResponseBody: Sendable {
    /// Where the bytes come from.
    enum Storage: Sendable {
        /// All of them at once.
        case whole(Data)
        /// A function that makes the one reader of the chunks.
        case chunks(@Sendable () -> ResponseBody.Reader)
        /// A body outside memory, such as a download's file, for the load to commit once it has succeeded.
        case committed(Commitment)
    }

    var storage: Storage

    /// A body that arrived whole.
    public init(_ data: Data) {
        storage = .whole(data)
    }

    /// The bytes of a body that is whole in memory, `nil` for one still arriving as chunks or a download's, which is in
    /// its file: what a middleware that keeps or shares a response asks, such as the cache and ``Deduplication``.
    public var data: Data? {
        if case .whole(let data) = storage { data } else { nil }
    }

    /// A body whose chunks `chunks` delivers as they arrive; it is read once, one chunk at a time, so a slow reader
    /// slows the sequence down.
    ///
    /// A chunk is any contiguous bytes, such as `Data` or an HTTP client's own buffers (SwiftNIO's `ByteBufferView`),
    /// which are read in place. Whatever the sequence holds, such as the client that reads it, stays alive until the
    /// body's reader, or the body if nobody reads it, is gone.
    ///
    /// Inlinable, so that a transport in another module reads its own sequence's chunks without generic dispatch.
    @inlinable
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element: ContiguousBytes & Sendable {
        self.init(reading: {
            var iterator = chunks.makeAsyncIterator()
            return ResponseBody.Reader { try await iterator.next().map(ResponseBody.Chunk.init) }
        })
    }

    /// A body whose one reader `makeReader` makes.
    @usableFromInline
    init(reading makeReader: @escaping @Sendable () -> Reader) {
        storage = .chunks(makeReader)
    }

    /// The one reader of the body's chunks, each read in place, for a receiver or a stream's loop.
    ///
    /// A body that arrived whole is one chunk. A body is read once, by whoever reads it first.
    public func reader() -> Reader {
        switch storage {
        case .whole(let data):
            var taken = false
            return ResponseBody.Reader {
                defer { taken = true }
                return taken ? nil : .data(data)
            }
        case .chunks(let makeReader):
            return makeReader()
        case .committed:
            // A download's body is in its file, not in memory.
            return ResponseBody.Reader { nil }
        }
    }

    /// This body with each error its chunks throw replaced by `transform`'s: how `Sending` hands a transport's body up,
    /// its errors as the pipeline reports them.
    func mappingErrors(_ transform: @escaping @Sendable (any Error) -> any Error) -> ResponseBody {
        guard case .chunks(let makeReader) = storage else { return self }
        var body = self
        body.storage = .chunks {
            let reader = makeReader()
            return ResponseBody.Reader {
                do { return try await reader.next() } catch { throw transform(error) }
            }
        }
        return body
    }

    /// The body's chunks as they arrive, read once: for a transport that wraps another, or a stream of your own.
    ///
    /// A body is read once, by whoever reads it first: its chunks, ``collect(upTo:)`` or the web service.
    public var chunks: some AsyncSequence<Data, any Error> & Sendable { Chunks(body: self) }

    /// The chunks of `body`, as `Data`.
    private struct Chunks: AsyncSequence, Sendable {
        let body: ResponseBody

        struct AsyncIterator: AsyncIteratorProtocol {
            var reader: ResponseBody.Reader?
            let body: ResponseBody

            mutating func next() async throws -> Data? {
                if reader == nil { reader = body.reader() }
                switch try await reader?.next() {
                case .data(let data): return data
                case .bytes(let bytes): return bytes.withUnsafeBytes { Data($0) }
                case nil: return nil
                }
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(body: body)
        }
    }

    /// The whole body, read to its end, or ``WebserviceError/Reason/bodyTooLarge(limit:)`` once it has more than
    /// `limit` bytes, which stops its transfer.
    public func collect(upTo limit: Int) async throws -> Data {
        if case .whole(let data) = storage {
            guard data.count <= limit else { throw WebserviceError(.bodyTooLarge(limit: limit)) }
            return data
        }
        let reader = reader()
        var data = Data()
        while let chunk = try await reader.next() {
            // Throwing drops the reader, which stops a transfer still under way.
            guard chunk.count <= limit - data.count else { throw WebserviceError(.bodyTooLarge(limit: limit)) }
            chunk.withUnsafeBytes { data.append(contentsOf: $0) }
        }
        return data
    }
}

extension ResponseBody {
    /// One chunk of a body, as its transport hands it over: `Data`, or other contiguous bytes, such as an HTTP client's
    /// own buffer, read in place.
    public enum Chunk: ContiguousBytes, Sendable {
        /// `Data`.
        case data(Data)
        /// Other bytes, read in place.
        case bytes(any ContiguousBytes & Sendable)

        /// The chunk of `bytes`.
        @inlinable
        public init(_ bytes: some ContiguousBytes & Sendable) {
            if let data = bytes as? Data {
                self = .data(data)
            } else if let chunk = bytes as? ResponseBody.Chunk {
                self = chunk
            } else {
                self = .bytes(bytes)
            }
        }

        /// The number of bytes.
        public var count: Int {
            switch self {
            case .data(let data): data.count
            case .bytes(let bytes): bytes.withUnsafeBytes(\.count)
            }
        }

        /// Calls `body` with the bytes, in place.
        public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            switch self {
            case .data(let data): try data.withUnsafeBytes(body)
            case .bytes(let bytes): try bytes.withUnsafeBytes(body)
            }
        }
    }

    /// The one reader of a body's chunks, in order, in one task, each read in place (``ResponseBody/reader()``).
    public struct Reader {
        let read: () async throws -> Chunk?

        /// A reader of the chunks `read` returns, `nil` after the last.
        public init(_ read: @escaping () async throws -> Chunk?) {
            self.read = read
        }

        /// The next chunk; `nil` after the last.
        public func next() async throws -> Chunk? {
            try await read()
        }
    }
}
