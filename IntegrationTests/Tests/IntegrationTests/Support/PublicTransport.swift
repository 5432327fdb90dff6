import AsyncHTTPClient
import Foundation
import NIOCore
import ResourceKit  // not `@testable`: this file sees ResourceKit as a user's own transport does

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport written against ResourceKit's public API alone, as Transports.md › "Your own transport" shows, over
/// AsyncHTTPClient's shared `HTTPClient`: it streams a file body (``RequestBody/file``) with its progress,
/// and hands the response's body over as it arrives (``ResponseBody`` of an `AsyncSequence`).
///
/// It is the suite's proof of the transport contract: ``TransportKind/publicAPI`` runs the upload, download and stream
/// tests through it.
struct PublicTransport: Transport {
    func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        let url = request.url
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = .init(rawValue: request.method)
        for field in request.headerFields { outgoing.headers.add(name: field.name, value: field.value) }
        if let body = request.body, let file = body.file {
            let length = try body.length()
            outgoing.body = .stream(
                FileChunks(file: file, length: length, progress: context.progress), length: .known(length))
        } else if let body = try request.body?.bytes() {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let seconds = context.timeRemaining ?? 60
        let response = try await HTTPClient.shared.execute(outgoing, timeout: .milliseconds(Int64(seconds * 1000)))
        var headers: [String: String] = [:]
        for field in response.headers {
            headers[field.name] = headers[field.name].map { "\($0), \(field.value)" } ?? field.value
        }
        let head = Response(statusCode: Int(response.status.code), headers: headers, url: url)
        return (head, ResponseBody(response.body.map { @Sendable buffer in Data(buffer.readableBytesView) }))
    }

    /// A file's bytes in 64 KiB buffers, read as the client asks for them, each reported to `progress`.
    struct FileChunks: AsyncSequence, Sendable {
        let file: URL
        let length: Int64
        let progress: (@Sendable (TransferProgress) -> Void)?

        func makeAsyncIterator() -> Iterator {
            Iterator(handle: try? FileHandle(forReadingFrom: file), chunks: self)
        }

        struct Iterator: AsyncIteratorProtocol {
            let handle: FileHandle?
            let chunks: FileChunks
            var sent: Int64 = 0

            mutating func next() async throws -> ByteBuffer? {
                guard let handle else { throw CocoaError(.fileReadNoSuchFile) }
                guard let data = try handle.read(upToCount: 1 << 16), !data.isEmpty else {
                    try handle.close()
                    return nil
                }
                sent += Int64(data.count)
                chunks.progress?(TransferProgress(isUpload: true, bytes: sent, expectedBytes: chunks.length))
                return ByteBuffer(bytes: data)
            }
        }
    }
}
