import Foundation
import ResourceKitCore
internal import ResourceKitSupport

extension ResponseBody {
    /// Writes a body from a thread that must not wait, such as a `URLSession` delegate's, for a transport of yours; its
    /// ``body`` is what the transport returns.
    ///
    /// ``write(_:)`` never waits for the reader: on Linux, curl's thread holds the work queue every `URLSession` of the
    /// process shares, so a wait there would stall every other load. Chunks the reader hasn't taken wait in memory up
    /// to `backlog` bytes, and past that in a file without a name, up to 1 GiB; past that the body fails and `stop` is
    /// called. `stop` is also called, on any thread, once the reader is cancelled or the body is dropped unread: cancel
    /// the transfer there.
    ///
    /// ```swift
    /// let writer = ResponseBody.Writer { task.cancel() }
    /// // in the delegate: writer.write(data) for each chunk, then writer.finish() or writer.finish(throwing: error)
    /// return (try Response(response), writer.body)
    /// ```
    public final class Writer: Sendable {
        private let channel: BodyChannel

        /// A writer whose chunks wait for the reader in memory up to `backlog` bytes, the rest on disk.
        ///
        /// `nil` keeps them all in memory, however many: only for a body a receiver reads as it arrives
        /// (``LoadContext/receiver`` isn't `nil`), never for a stream, whose loop may fall behind a fast server. `stop`
        /// ends the transfer when nobody will read what follows.
        public init(backlog: Int? = 1 << 20, stop: @escaping @Sendable () -> Void) {
            channel = BodyChannel(backlog: backlog.map { max($0, 0) }, stop: stop)
        }

        /// Adds `data` to the body, without waiting; nothing after the body ended.
        public func write(_ data: Data) {
            channel.write(data)
        }

        /// Ends the body: whole without `error`, broken off with it.
        public func finish(throwing error: (any Error)? = nil) {
            channel.finish(error)
        }

        /// The body, read once: take it once, and return it from ``Transport/send(_:context:)``; when it is dropped
        /// unread, `stop` is called.
        public var body: ResponseBody { channel.body }
    }
}
