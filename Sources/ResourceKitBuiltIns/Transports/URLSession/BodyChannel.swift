import Foundation
import ResourceKitCore
internal import ResourceKitSupport
import Synchronization

/// A response body that a transport writes on its own thread, such as its session delegate's, and a load reads.
///
/// The load reads it through ``ResponseBody/init(_:)`` (``Chunks``), a chunk at a time (``next()``): chunks wait here
/// until it asks. When the reader is cancelled or gone, ``stop`` ends the transfer.
///
/// The writer never waits for the reader: on Linux, curl's thread holds the work queue that every `URLSession` of the process shares, so a
/// wait there would stall every other load, and on Apple platforms waiting would hold the session's delegate queue.
/// Once more than the stream's `backlog` waits in memory, the chunks that
/// follow wait in a ``Spool`` on disk, until the reader has caught up; past the spool's limit the body fails with
/// ``backlogExceeded(_:)`` and the transfer stops. Memory stays bounded either way.
final class BodyChannel: Sendable {
    private struct State {
        /// Chunks written before the reader came, or, for a stream, not taken yet.
        var early: [Data] = []
        /// The chunks of ``early`` a stream took already.
        var taken = 0
        /// The bytes in ``early`` not taken yet.
        var waiting = 0
        /// For a stream, the chunks that came after ``early`` while it was full, until the reader took them all.
        var spool: Spool?
        /// The stream waiting for the next chunk.
        var taker: CheckedContinuation<Data?, any Error>?
        /// How the body ended: written whole, or failed.
        var end: Result<Void, any Error>?
    }

    private let state = Mutex(State())
    /// Stops the transfer, on any thread.
    private let stop: @Sendable () -> Void
    /// For a stream, the bytes that may wait for the reader in memory before they wait on disk.
    private let backlog: Int?
    /// For a stream, the most bytes that may wait on disk, and the most in one of its files.
    private let spoolLimit: Int64
    private let spoolSegment: Int64
    /// For a stream, the directory of the spool's files; `nil` for the temporary directory (`TMPDIR`).
    private let spoolDirectory: String?

    /// An empty channel.
    init(
        backlog: Int? = nil,
        spoolLimit: Int64 = Spool.limit,
        spoolSegment: Int64 = Spool.segment,
        spoolDirectory: String? = nil,
        stop: @escaping @Sendable () -> Void
    ) {
        self.backlog = backlog
        self.spoolLimit = spoolLimit
        self.spoolSegment = spoolSegment
        self.spoolDirectory = spoolDirectory
        self.stop = stop
    }

    /// Takes the next chunk, on the writer's thread, which it never makes wait; an empty one changes nothing.
    func write(_ data: Data) {
        // An empty chunk would reserve nothing in the spool: the file the reader just finished would stay first.
        guard !data.isEmpty else { return }
        var failed = false
        var spooled: Spool.Placement?
        let settled = state.withLock { state -> (() -> Void)? in
            guard state.end == nil else { return nil }
            if let taker = state.taker {
                state.taker = nil
                return { taker.resume(returning: data) }
            }
            do {
                spooled = try keep(data, in: &state)
                return nil
            } catch {
                return Self.fail(&state, with: error, failed: &failed)
            }
        }
        if failed { stop() }
        settled?()
        if let spooled { spool(data, at: spooled) }
    }

    /// Keeps `data` for a reader still to come, or a stream's reader that is behind: after the chunks that wait
    /// already, in memory while fewer than `backlog` bytes wait there and none on disk; otherwise returns where in
    /// the spool to write it, outside the lock.
    private func keep(_ data: Data, in state: inout State) throws -> Spool.Placement? {
        let spooling = (state.spool?.unread ?? 0) > 0
        guard let backlog, spooling || state.waiting + Self.weight(of: data) > backlog else {
            state.early.append(data)
            state.waiting += Self.weight(of: data)
            return nil
        }
        if state.spool == nil { state.spool = Spool(limit: spoolLimit, segment: spoolSegment) }
        return try state.spool?.reserve(data.count)
    }

    /// Writes `data` into the spool at `placement` without the lock, so that a reader never waits for a disk, then
    /// counts it; a reader that found nothing to read meanwhile gets it.
    private func spool(_ data: Data, at placement: Spool.Placement) {
        let written = Result { try Spool.write(data, at: placement, in: spoolDirectory) }
        var failed = false
        let (closing, settled) = state.withLock { state -> ([Int32], (() -> Void)?) in
            switch written {
            case .success(let descriptor):
                let closing = state.spool?.commit(data.count, to: descriptor, at: placement) ?? [descriptor]
                guard let taker = state.taker, let piece = state.spool?.next(atMost: Self.pieceSize) else {
                    return (closing, nil)
                }
                state.taker = nil
                return (closing, { self.take(piece, for: taker) })
            case .failure(let error):
                let closing = state.spool?.abandon(data.count, at: placement) ?? []
                guard state.end == nil else { return (closing, nil) }
                return (closing, Self.fail(&state, with: error, failed: &failed))
            }
        }
        Spool.close(closing)
        if failed { stop() }
        settled?()
    }

    /// Ends the body in `state` with `error`, noting that the transfer is to be stopped, and returns what hands
    /// its reader the end, to run outside the lock.
    private static func fail(_ state: inout State, with error: any Error, failed: inout Bool) -> (() -> Void)? {
        state.end = .failure(error)
        failed = true
        return settle(&state)
    }

    /// The most bytes a stream's reader takes from the spool at once.
    private static let pieceSize = 1 << 18

    /// The error of a stream whose reader fell more than `backlog` behind its server.
    static func backlogExceeded(_ backlog: String) -> URLError {
        URLError(
            .dataLengthExceedsMaximum,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "The stream's reader fell more than \(backlog) behind the server, which URLSessionTransport "
                    + "doesn't hold back."
            ])
    }

    deinit {
        Spool.close(state.withLock { $0.spool?.removeAll() ?? [] })
    }

    /// The next chunk, for a stream, or `nil` after the last; cancelling the calling task stops the transfer.
    func next() async throws -> Data? {
        // What waits in memory already, or the end, is taken at once: a small body has arrived whole by the time its
        // reader asks.
        if !Task.isCancelled, let ready = state.withLock({ Self.ready(in: &$0) }) { return try ready.get() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { taker in
                let take = state.withLock { state -> () -> Void in
                    if let chunk = Self.takeEarly(from: &state) { return { taker.resume(returning: chunk) } }
                    if let piece = state.spool?.next(atMost: Self.pieceSize) {
                        return { self.take(piece, for: taker) }
                    }
                    switch state.end {
                    case .success: return { taker.resume(returning: nil) }
                    case .failure(let error): return { taker.resume(throwing: error) }
                    case nil:
                        state.taker = taker
                        return {}
                    }
                }
                take()
            }
        } onCancel: {
            cancel(CancellationError())
        }
    }

    /// The next chunk that waits in memory, taken out of `state`; `nil` when none does.
    private static func takeEarly(from state: inout State) -> Data? {
        guard state.taken < state.early.count else { return nil }
        let chunk = state.early[state.taken]
        state.taken += 1
        if state.taken * 2 >= state.early.count {
            state.early.removeFirst(state.taken)
            state.taken = 0
        }
        state.waiting -= weight(of: chunk)
        return chunk
    }

    /// What a reader gets without waiting: a chunk in memory, or the end once nothing waits on disk; `nil` otherwise.
    private static func ready(in state: inout State) -> Result<Data?, any Error>? {
        if let chunk = takeEarly(from: &state) { return .success(chunk) }
        guard (state.spool?.unread ?? 0) == 0 else { return nil }
        switch state.end {
        case .success: return .success(nil)
        case .failure(let error): return .failure(error)
        case nil: return nil
        }
    }

    /// The bytes that wait for a stream's reader in memory, with what keeping each chunk costs.
    var waitingInMemory: Int { state.withLock { $0.waiting } }

    /// The bytes a stream's spool holds on disk.
    var spoolFootprint: Int64 { state.withLock { $0.spool?.footprint ?? 0 } }

    /// Reads `piece` from the spool on a Dispatch thread and hands it to `taker`; a spool that can't be read is
    /// dropped, and the body fails.
    private func take(_ piece: Spool.Piece, for taker: CheckedContinuation<Data?, any Error>) {
        DispatchQueue.global().async {
            do {
                let chunk = try piece.read()
                let read = self.state.withLock { $0.spool?.took(chunk.count) }
                Spool.close(read.map { [$0] } ?? [])
                taker.resume(returning: chunk)
            } catch {
                // Emptied and ended at once: no chunk the writer adds in between waits in a new file.
                var failed = false
                let (closing, settled) = self.state.withLock { state -> ([Int32], (() -> Void)?) in
                    let closing = state.spool?.removeAll() ?? []
                    guard state.end == nil else { return (closing, nil) }
                    return (closing, Self.fail(&state, with: error, failed: &failed))
                }
                Spool.close(closing)
                if failed { self.stop() }
                settled?()
                taker.resume(throwing: error)
            }
        }
    }

    /// What a waiting chunk counts against the backlog: its bytes and what keeping it costs, so that a server's
    /// one-byte writes can't queue a million chunks.
    private static func weight(of chunk: Data) -> Int {
        chunk.count + 64
    }

    /// Ends the body: whole when `error` is `nil`.
    func finish(_ error: (any Error)? = nil) {
        let settled = state.withLock { state -> (() -> Void)? in
            if state.end == nil { state.end = error.map { .failure($0) } ?? .success(()) }
            return Self.settle(&state)
        }
        settled?()
    }

    /// Ends the body with `error` and stops the transfer, unless it ended already: no reader will take what is
    /// still written.
    func cancel(_ error: any Error) {
        let open = state.withLock { $0.end == nil }
        finish(error)
        if open { stop() }
    }

    /// The channel's chunks, for ``ResponseBody/init(_:)``: while the body or its reader holds them, the channel is
    /// held (``Hold``).
    struct Chunks: AsyncSequence, Sendable {
        let hold: Hold

        struct AsyncIterator: AsyncIteratorProtocol {
            let hold: Hold

            func next() async throws -> Data? { try await hold.channel.next() }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(hold: hold) }
    }

    /// The body of this channel, read a chunk at a time.
    var body: ResponseBody { ResponseBody(Chunks(hold: Hold(self))) }

    /// The reader's hold on a channel: when the last copy of the ``ResponseBody`` goes, read or not, the transfer
    /// stops, so a body nobody reads is never written on into memory.
    final class Hold: Sendable {
        let channel: BodyChannel

        init(_ channel: BodyChannel) {
            self.channel = channel
        }

        deinit {
            channel.cancel(CancellationError())
        }
    }

    /// When the body ended and its reader waits, takes both out of `state` and returns what hands the reader the
    /// end, to run outside the lock.
    private static func settle(_ state: inout State) -> (() -> Void)? {
        guard let end = state.end, let taker = state.taker else { return nil }
        state.taker = nil
        switch end {
        case .success: return { taker.resume(returning: nil) }
        case .failure(let error): return { taker.resume(throwing: error) }
        }
    }
}
