import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// Starts a server on loopback that answers every request on a connection with `response`, bytes as they are, then
/// closes the connection; runs `body` with its base URL, and stops the server, also when `body` throws.
///
/// For what no HTTP server library writes: a status line without a reason phrase, a body shorter than its
/// `Content-Length`, trailer fields.
func withRawServer(answering response: String, _ body: (URL) async throws -> Void) async throws {
    try await withRawServer(answering: response) { base, _ in try await body(base) }
}

/// ``withRawServer(answering:_:)`` that also hands `body` the request lines the server received, such as
/// `DELETE /api//users/42 HTTP/1.1`, in the order they arrived.
func withRawServer(
    answering response: String,
    _ body: (URL, _ requestLines: @Sendable () -> [String]) async throws -> Void
) async throws {
    let bytes = Array(response.utf8)
    let received = ReceivedLines()
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(Answer(bytes, received: received))
            }
        }
        .bind(host: "127.0.0.1", port: 0).get()
    let url = URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)")!
    try await run(
        { try await body(url) { received.lines.withLock { $0 } } }, thenCleanUp: { try await channel.close() })
}

/// The request lines a raw server received.
private final class ReceivedLines: Sendable {
    let lines = Mutex<[String]>([])
}

/// Writes its bytes once the request has begun to arrive, then closes the connection; notes the request's first line.
private final class Answer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let bytes: [UInt8]
    private let received: ReceivedLines
    private var started = false

    init(_ bytes: [UInt8], received: ReceivedLines) {
        self.bytes = bytes
        self.received = received
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !started {
            started = true
            let request = unwrapInboundIn(data).readableBytesView
            let line = request.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
            received.lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
        }
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.writeAndFlush(NIOAny(buffer)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
