import Foundation

/// A response body as a transport delivers it: whole, or as chunks while they arrive.
///
/// A ``Transport`` returns it with the response's head from ``Transport/send(_:context:)``; ``Webservice`` then reads
/// it once, enforcing the body limit, saving a download to its file and reporting progress as the chunks arrive, the
/// same way for every transport. See <doc:Transports>.
///
/// ```swift
/// return (head, ResponseBody(chunks))  // any `AsyncSequence` of `Data`, read as the web service asks for it
/// ```
public struct ResponseBody: Sendable {
    /// Where the bytes come from.
    enum Storage: Sendable {
        /// All of them at once.
        case whole(Data)
        /// A function that hands each chunk of a sequence to its argument, in order, as it arrives.
        case chunks(@Sendable (_ each: (Data) throws -> Void) async throws -> Void)
        #if canImport(FoundationNetworking)
            /// Chunks a transport writes on its own thread (``BodyChannel``).
            case channel(BodyChannel.Hold)
        #endif
    }

    let storage: Storage

    /// A body that arrived whole.
    public init(_ data: Data) {
        storage = .whole(data)
    }

    /// A body whose chunks `chunks` delivers as they arrive; it is read once, one chunk at a time, so a slow reader
    /// slows the sequence down.
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element == Data {
        storage = .chunks { each in
            for try await chunk in chunks { try each(chunk) }
        }
    }

    #if canImport(FoundationNetworking)
        /// A body that a transport writes into `channel`.
        init(_ channel: BodyChannel) {
            storage = .channel(BodyChannel.Hold(channel))
        }
    #endif

    /// Stops a body nobody will read, with `error`: a transport writing it on its own thread stops the transfer.
    func cancel(_ error: any Error) {
        #if canImport(FoundationNetworking)
            if case .channel(let hold) = storage { hold.channel.cancel(error) }
        #endif
    }

    /// Reads the whole body into `arriving`, and returns it; on a failure, `arriving` is abandoned (a download's file
    /// removed) and the error thrown.
    func read(into arriving: ArrivingBody) async throws -> ArrivingBody {
        let read: @Sendable (_ each: (Data) throws -> Void) async throws -> Void
        switch storage {
        case .whole(let data): read = { each in try each(data) }
        case .chunks(let chunks): read = chunks
        #if canImport(FoundationNetworking)
            case .channel(let hold): return try await hold.channel.read(into: arriving)
        #endif
        }
        var arriving = arriving
        do {
            try await read { chunk in try arriving.append(chunk)?.report() }
            return arriving
        } catch {
            arriving.abandon()
            throw error
        }
    }
}
