import Foundation
import Hummingbird

extension Router {
    /// Adds a download that honours `Range`, for resumed downloads; ``addFileTransferRoutes()`` adds it too.
    ///
    /// - `GET /transfers/file?bytes=N&seed=S`: the N bytes of ``ServedFile`` for `S` (default 0), streamed in
    ///   64 KiB writes, never held whole, with a strong `ETag`, `Last-Modified` and `Accept-Ranges: bytes`. A
    ///   `Range: bytes=first-` or `bytes=first-last` is answered with `206` and its `Content-Range`, or `416` past the
    ///   end; with an `If-Range` that matches neither the `ETag` nor the `Last-Modified`, with the whole file (`200`).
    ///   - `cut=K`: the first request for `S` drops the connection after K bytes of its body, 300 ms after writing
    ///     them.
    ///   - `ignore-range=1`: always the whole file, `200`, as a server without range support.
    /// - `POST /transfers/file/change?seed=S`: `S`'s next version, with other bytes, `ETag` and `Last-Modified`.
    /// - `GET /transfers/file/sent?seed=S`: `{"bytes": n, "requests": r}`: the body bytes written for `S` so far, and
    ///   the requests for it, so a test sees how many bytes a resumed download had sent again.
    public func addResumableFileRoutes() {
        let meter = ServedFileMeter()
        get("/transfers/file") { request, _ in
            let seed = UInt64(request.integer("seed") ?? 0)
            let file = ServedFile(
                size: max(request.integer("bytes") ?? 0, 0), seed: seed, version: await meter.version(seed))
            let cut = await meter.takeCut(seed, after: request.integer("cut"))
            var headers: HTTPFields = [
                .contentType: "application/octet-stream", .eTag: file.etag, .lastModified: file.lastModified,
                .acceptRanges: "bytes",
            ]
            var range = 0..<file.size
            var status = HTTPResponse.Status.ok
            let validator = request.headers[.ifRange]
            if request.integer("ignore-range") != 1, let asked = request.headers[.range].flatMap(Self.byteRange),
                validator == nil || validator == file.etag || validator == file.lastModified
            {
                guard asked.lowerBound < file.size else {
                    headers[.contentRange] = "bytes */\(file.size)"
                    return Response(status: .rangeNotSatisfiable, headers: headers)
                }
                range = asked.lowerBound..<min(asked.upperBound, file.size)
                status = .partialContent
                headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(file.size)"
            }
            return Response(
                status: status, headers: headers,
                body: ResponseBody(contentLength: range.count) { [range] writer in
                    var offset = range.lowerBound
                    let end = cut.map { min(range.upperBound, range.lowerBound + $0) } ?? range.upperBound
                    while offset < end {
                        let block = offset / ServedFile.blockSize
                        let start = offset - block * ServedFile.blockSize
                        let bytes = file.block(block)
                        let count = min(bytes.count - start, end - offset)
                        try await writer.write(ByteBuffer(bytes: bytes[start..<start + count]))
                        await meter.sent(count, for: seed)
                        offset += count
                    }
                    // Up to 5 MiB of 16 were measured still queued at the cut: a longer pause.
                    if cut != nil { try await FaultError.breakConnection(after: .milliseconds(300)) }
                    try await writer.finish(nil)
                })
        }
        post("/transfers/file/change") { request, _ in
            await meter.change(UInt64(request.integer("seed") ?? 0))
            return Response(status: .noContent)
        }
        get("/transfers/file/sent") { request, _ in
            try Response.json(await meter.served(UInt64(request.integer("seed") ?? 0)))
        }
    }

    /// The bytes `bytes=first-` or `bytes=first-last` asks for; `nil` for another range.
    private static func byteRange(_ value: String) -> Range<Int>? {
        guard value.hasPrefix("bytes=") else { return nil }
        let bounds = value.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0]), first >= 0 else { return nil }
        if bounds[1].isEmpty { return first..<Int.max }
        guard let last = Int(bounds[1]), last >= first, last < Int.max else { return nil }
        return first..<last + 1
    }
}

/// The bytes `/transfers/file` serves for a seed and a version: 64 KiB blocks of one pseudo-random block, each with
/// its number, the seed and the version in its first 24 bytes, so no two blocks are alike and a byte out of place
/// changes the file's SHA-256.
public struct ServedFile: Sendable {
    /// The file's length in bytes.
    public let size: Int
    /// Which file.
    public let seed: UInt64
    /// Which version of it: `POST /transfers/file/change` makes the next one.
    public let version: Int

    /// The bytes of a block; the last one may be shorter.
    public static let blockSize = 65_536

    /// Creates the description of a file.
    public init(size: Int, seed: UInt64, version: Int = 0) {
        self.size = size
        self.seed = seed
        self.version = version
    }

    /// The strong `ETag`.
    public var etag: String { "\"\(seed)-\(version)\"" }

    /// The `Last-Modified` date, a second later for each version.
    var lastModified: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: 1_700_000_000 + TimeInterval(version)))
    }

    /// The number of blocks.
    public var blocks: Int { (size + Self.blockSize - 1) / Self.blockSize }

    /// The bytes of block `index`.
    public func block(_ index: Int) -> [UInt8] {
        var bytes = Self.pattern
        withUnsafeBytes(of: (UInt64(index).littleEndian, seed.littleEndian, UInt64(version).littleEndian)) { mark in
            bytes.replaceSubrange(0..<mark.count, with: mark)
        }
        let count = min(Self.blockSize, size - index * Self.blockSize)
        if count < Self.blockSize { bytes.removeLast(Self.blockSize - count) }
        return bytes
    }

    /// One pseudo-random block (splitmix64), the same in every process.
    private static let pattern: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes: [UInt8] = []
        bytes.reserveCapacity(blockSize)
        while bytes.count < blockSize {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            mixed ^= mixed >> 31
            withUnsafeBytes(of: mixed) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }()
}

/// What `/transfers/file/sent` answers for a seed.
public struct ServedBytes: Codable, Sendable, Equatable {
    /// The body bytes written so far.
    public var bytes: Int
    /// The requests served.
    public var requests: Int
}

/// The state of `/transfers/file`, by seed: the versions, the cuts made and the bytes sent.
private actor ServedFileMeter {
    private var versions: [UInt64: Int] = [:]
    private var cut: Set<UInt64> = []
    private var counts: [UInt64: ServedBytes] = [:]

    func version(_ seed: UInt64) -> Int { versions[seed] ?? 0 }

    func change(_ seed: UInt64) { versions[seed, default: 0] += 1 }

    /// `bytes` for the first request for `seed` that asks for a cut, and counts the request; `nil` otherwise.
    func takeCut(_ seed: UInt64, after bytes: Int?) -> Int? {
        counts[seed, default: ServedBytes(bytes: 0, requests: 0)].requests += 1
        guard let bytes, cut.insert(seed).inserted else { return nil }
        return bytes
    }

    func sent(_ count: Int, for seed: UInt64) {
        counts[seed, default: ServedBytes(bytes: 0, requests: 0)].bytes += count
    }

    func served(_ seed: UInt64) -> ServedBytes { counts[seed] ?? ServedBytes(bytes: 0, requests: 0) }
}
