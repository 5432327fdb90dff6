import Foundation
import NIOCore
import NIOPosix

/// Starts a server on loopback that answers every request on a connection with `response`, bytes as they are, then
/// closes the connection; runs `body` with its base URL, and stops the server, also when `body` throws.
///
/// For what no HTTP server library writes: a status line without a reason phrase, a body shorter than its
/// `Content-Length`, trailer fields.
func withRawServer(answering response: String, _ body: (URL) async throws -> Void) async throws {
    let bytes = Array(response.utf8)
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Answer(bytes)) }
        }
        .bind(host: "127.0.0.1", port: 0).get()
    let url = URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)")!
    try await run({ try await body(url) }, thenCleanUp: { try await channel.close() })
}

/// Writes its bytes once the request has begun to arrive, then closes the connection.
private final class Answer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.writeAndFlush(NIOAny(buffer)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
