import Foundation
import Hummingbird

extension Router {
    /// Adds the fault routes that trip up an HTTP client's transport rather than its parsing.
    ///
    /// - `GET /faults/gzip-bomb?megabytes=`: `Content-Encoding: gzip` of that many mebibytes of zeros (default 1 000),
    ///   about 1 MB on the wire for 1 000 MiB, with the compressed `Content-Length`.
    /// - `GET /faults/unauthorized?challenge=`: 401 with `WWW-Authenticate: <challenge>` (default
    ///   `Basic realm="episodes"`) and a JSON error body.
    /// - `POST /faults/redirect-loop`: a 307 to itself, forever.
    /// - `POST` or `PUT /faults/body`: `{"method": …, "contentLength": …, "body": …}`, the request's method, its
    ///   `Content-Length` (empty when absent) and its body as UTF-8 text, to check what reached the server.
    func addTransportFaultRoutes() {
        get("/faults/gzip-bomb") { request, _ in
            let megabytes = max(request.uri.queryParameters["megabytes"].flatMap { Int(String($0)) } ?? 1_000, 0)
            let compressed = gzipOfZeros(count: megabytes * 1_048_576)
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream", .contentEncoding: "gzip"],
                body: ResponseBody(contentLength: compressed.count) { writer in
                    var offset = 0
                    while offset < compressed.count {
                        let end = min(offset + 65_536, compressed.count)
                        try await writer.write(ByteBuffer(bytes: compressed[offset..<end]))
                        offset = end
                    }
                    try await writer.finish(nil)
                }
            )
        }
        get("/faults/unauthorized") { request, _ in
            let challenge = request.uri.queryParameters["challenge"].map(String.init) ?? #"Basic realm="episodes""#
            return APIError(
                status: .unauthorized,
                code: "unauthorized",
                reason: "Sign in again",
                headers: [.wwwAuthenticate: challenge]
            ).response
        }
        let echoBody: @Sendable (Request, Context) async throws -> Response = { request, context in
            let body = try await request.body.collect(upTo: context.maxUploadSize)
            return try Response.json(
                BodyEcho(
                    method: request.method.rawValue,
                    contentLength: request.headers[.contentLength] ?? "",
                    body: String(decoding: body.readableBytesView, as: UTF8.self)
                )
            )
        }
        post("/faults/body", use: echoBody)
        post("/faults/redirect-loop") { _, _ in
            Response(status: .temporaryRedirect, headers: [.location: "/faults/redirect-loop", .contentLength: "0"])
        }
        put("/faults/body", use: echoBody)
    }
}

/// What `/faults/body` answers.
private struct BodyEcho: Encodable {
    var method: String
    var contentLength: String
    var body: String
}

/// A gzip stream of `size` zero bytes, built by hand in a few milliseconds: a single dynamic-Huffman deflate block in
/// which one 258-byte copy costs two bits, the format's best ratio (1032 : 1), so 1 000 MiB take about 1 MB.
func gzipOfZeros(count size: Int) -> [UInt8] {
    var bits = BitWriter()
    bits.write(1, count: 1)  // the final block
    bits.write(2, count: 2)  // with dynamic Huffman codes
    bits.write(286 - 257, count: 5)  // literal/length codes 0...285
    bits.write(1 - 1, count: 5)  // one distance code
    bits.write(18 - 4, count: 4)  // code-length code lengths sent
    // Their lengths, in the format's order 16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1.
    for length: UInt32 in [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2] {
        bits.write(length, count: 3)
    }
    // Canonical code-length codes: 18 (a run of zeros) → 0, 1 → 10, 2 → 11.
    func zeros(_ count: UInt32) {
        bits.writeCode(0b0, length: 1)
        bits.write(count - 11, count: 7)
    }
    // Literal/length code lengths: 0 → 2, 1...255 → 0, 256 → 2, 257...284 → 0, 285 → 1; then distance code 0 → 1.
    bits.writeCode(0b11, length: 2)
    zeros(138)
    zeros(117)
    bits.writeCode(0b11, length: 2)
    zeros(28)
    bits.writeCode(0b10, length: 2)
    bits.writeCode(0b10, length: 2)
    // Canonical codes: length 258 (285) → 0, literal 0 → 10, end of block (256) → 11; distance 1 → 0.
    func literalZero() { bits.writeCode(0b10, length: 2) }
    func copy258() { bits.write(0, count: 2) }
    if size > 0 {
        literalZero()
        var copies = (size - 1) / 258
        while copies > 0 && !bits.isAligned {
            copy258()
            copies -= 1
        }
        bits.appendZeroBytes(copies / 4)  // four copies a byte, all zero bits
        for _ in 0..<(copies % 4) { copy258() }
        for _ in 0..<((size - 1) % 258) { literalZero() }
    }
    bits.writeCode(0b11, length: 2)
    let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
    let crc = crc32OfZeros(count: size)
    let length = UInt32(truncatingIfNeeded: size)
    let trailer =
        (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
        + (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) }
    return header + bits.finish() + trailer
}

/// Deflate's bit order: fields least significant bit first, Huffman codes most significant bit first.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var pending: UInt32 = 0
    private var pendingCount = 0

    var isAligned: Bool { pendingCount == 0 }

    mutating func write(_ value: UInt32, count: Int) {
        for index in 0..<count {
            pending |= ((value >> index) & 1) << pendingCount
            pendingCount += 1
            if pendingCount == 8 {
                bytes.append(UInt8(pending))
                pending = 0
                pendingCount = 0
            }
        }
    }

    mutating func writeCode(_ code: UInt32, length: Int) {
        for index in (0..<length).reversed() {
            write((code >> index) & 1, count: 1)
        }
    }

    mutating func appendZeroBytes(_ count: Int) {
        bytes.append(contentsOf: repeatElement(0, count: count))
    }

    func finish() -> [UInt8] {
        pendingCount > 0 ? bytes + [UInt8(pending)] : bytes
    }
}

/// The CRC-32 of `count` zero bytes in O(log count) steps: the initial register times x^(8·count), modulo the
/// polynomial, as zlib's `crc32_combine` computes it.
private func crc32OfZeros(count: Int) -> UInt32 {
    // Polynomials over GF(2) in CRC-32's reflected form, where bit 31 is x^0.
    func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var a = a
        var b = b
        var product: UInt32 = 0
        var bit: UInt32 = 1 << 31
        while a != 0 {
            if a & bit != 0 {
                product ^= b
                a &= ~bit
            }
            bit >>= 1
            b = b & 1 != 0 ? (b >> 1) ^ 0xEDB8_8320 : b >> 1
        }
        return product
    }
    var power: UInt32 = 1 << 31  // x^0
    var square: UInt32 = 1 << 23  // x^8, one zero byte
    var remaining = count
    while remaining > 0 {
        if remaining & 1 != 0 { power = multiply(power, square) }
        square = multiply(square, square)
        remaining >>= 1
    }
    return multiply(power, 0xFFFF_FFFF) ^ 0xFFFF_FFFF
}
