import Foundation
import Hummingbird

extension Router {
    /// Adds the route that receives large uploads, and the resumable download of ``addResumableFileRoutes()``; other
    /// large downloads come from `GET /faults/large`.
    ///
    /// - `PUT`, `POST` or `GET /transfers/upload?checksum=1`: reads the request body as it streams, holding none of it, and
    ///   answers `{"bytes": n}`, with `"checksum"`, the sum of the bytes times their offsets plus one modulo 2⁶⁴ (for
    ///   bodies small enough to check byte by byte), when asked; `&padding=n` adds a string of `n` bytes to the answer,
    ///   for a large response to an upload.
    public func addFileTransferRoutes() {
        let upload: @Sendable (Request, Context) async throws -> Response = { request, _ in
            let checks = request.uri.queryParameters["checksum"] == "1"
            var count = 0
            var checksum: UInt64 = 0
            for try await buffer in request.body {
                if checks {
                    for (offset, byte) in buffer.readableBytesView.enumerated() {
                        checksum &+= UInt64(byte) &* UInt64(count + offset + 1)
                    }
                }
                count += buffer.readableBytes
            }
            let receipt = UploadReceipt(bytes: count, checksum: checks ? checksum : nil)
            if let padding = request.integer("padding") {
                let padded = PaddedReceipt(receipt: receipt, padding: String(repeating: "x", count: padding))
                return try Response.json(padded)
            }
            return try Response.json(receipt)
        }
        put("/transfers/upload", use: upload)
        post("/transfers/upload", use: upload)
        get("/transfers/upload", use: upload)  // a redirect that turns an upload into a GET must not send the file
        addResumableFileRoutes()
    }
}

/// What `/transfers/upload?padding=n` answers: the receipt's fields and `"padding"`.
private struct PaddedReceipt: Encodable {
    var receipt: UploadReceipt
    var padding: String

    func encode(to encoder: any Encoder) throws {
        try receipt.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(padding, forKey: .padding)
    }

    private enum CodingKeys: String, CodingKey { case padding }
}

/// What `/transfers/upload` answers.
public struct UploadReceipt: Codable, Sendable, Equatable {
    /// The bytes the body had.
    public var bytes: Int
    /// The body's checksum, when it was asked for.
    public var checksum: UInt64?

    /// Creates a receipt.
    public init(bytes: Int, checksum: UInt64?) {
        self.bytes = bytes
        self.checksum = checksum
    }

    /// The checksum `/transfers/upload` computes for `data`.
    public static func checksum(of data: Data) -> UInt64 {
        var checksum: UInt64 = 0
        for (offset, byte) in data.enumerated() {
            checksum &+= UInt64(byte) &* UInt64(offset + 1)
        }
        return checksum
    }
}
