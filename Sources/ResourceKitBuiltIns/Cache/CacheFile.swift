import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The format of a persistent cache's entry file, and reading one back, trusting none of its bytes.
///
/// A file is a fixed head, then the metadata, then the body:
///
/// - head (36 bytes, little-endian): the magic `RKRC`, the version (5), the metadata's length (32 bits) and XXH64,
///   the body's length (64 bits) and XXH64;
/// - metadata: the key (``keyBytes(_:salt:)``), then the response's head: the date it was stored (a `Double`'s bits),
///   the status code, the response's URL when it isn't the request's (after a redirect), redacted
///   (``Redaction/redacted(_:removing:)``), else an empty text, the number of header fields and each name and value,
///   without credentials (``withoutCredentials(_:)``); every text is its length (32 bits) then its UTF-8;
/// - body: the bytes as they are.
///
/// Reading checks the magic and version, that the lengths add up to the file's real size before anything is allocated
/// from them, both checksums, that the key is the one asked for, and that the metadata parses to its last byte; any
/// failure throws ``Corrupt``, and the caller drops the file.
enum CacheFile {
    /// The bytes of the head.
    static let headLength = 36
    private static let magic: UInt32 = 0x4352_4B52  // "RKRC" read little-endian
    /// 5 since the response's head holds no credential (4 sealed it, 3 held it as it arrived); a file of another
    /// version is corrupt.
    private static let version: UInt32 = 5
    /// The bytes of a directory's salt.
    static let saltLength = 32

    /// A file that isn't a whole entry of this format for the key asked for, or that can't be read or written.
    struct Corrupt: Error {}

    /// The bytes a key is compared, named and stored by: the ``digest(_:salt:)`` of its URL as length-prefixed bytes,
    /// then the digest of its header fields sorted by name, so that equal keys have equal bytes and neither the URL
    /// (which may hold a token in its query or user information) nor a header value, such as a credential, is ever
    /// written.
    static func keyBytes(_ key: ResponseCache.Key, salt: [UInt8]) throws -> [UInt8] {
        var fields = Writer()
        fields.append(try length(key.headers.count))
        for (name, value) in key.headers.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            try fields.append(text: name)
            try fields.append(text: value)
        }
        var writer = Writer()
        try writer.append(text: digest(Array(key.url.utf8), salt: salt))
        writer.bytes += digest(fields.bytes, salt: salt)
        return writer.bytes
    }

    /// `count` bytes from the system's secure random number generator: a salt or a secret.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The SHA-256 of `salt` followed by `bytes`: a directory's secret salt makes its digests of a guessed URL or
    /// credential unlike any computed without it, or in another directory.
    static func digest(_ bytes: [UInt8], salt: [UInt8]) -> [UInt8] {
        sha256(salt + bytes)
    }

    /// The head and metadata of the file for `entry` under the key whose ``keyBytes(_:salt:)`` are `key` and whose
    /// URL is `url`, without `secrets`, the credentials of its request (which a response may echo) and those
    /// ``withoutCredentials(_:removing:)`` finds; the body follows them as it is.
    ///
    /// - Throws: ``Corrupt`` when a text or the metadata is too long for its length field, or the response's URL
    ///   redacted is no URL.
    static func head(of entry: ResponseCache.Entry, key: [UInt8], url: String, secrets: [String]) throws
        -> [UInt8]
    {
        var metadata = Writer()
        try metadata.append(text: key)
        metadata.append(entry.stored.timeIntervalSinceReferenceDate.bitPattern)
        metadata.append(UInt64(bitPattern: Int64(entry.response.statusCode)))
        if entry.response.url.absoluteString == url {
            try metadata.append(text: [])
        } else {
            guard let redacted = Redaction.redacted(entry.response.url, removing: secrets) else { throw Corrupt() }
            try metadata.append(text: redacted.absoluteString.utf8)
        }
        let headers = withoutCredentials(entry.response.headers, removing: secrets)
        metadata.append(try length(headers.count))
        for (name, value) in headers {
            try metadata.append(text: name.utf8)
            try metadata.append(text: value.utf8)
        }
        return try framing(metadata.bytes, body: entry.response.body)
    }

    /// `headers` as a file holds them, so that none of their credentials is written: a field known to carry none
    /// (``isSafeHeader(_:extra:)``), such as `ETag`, as it is; one whose name is a credential's
    /// (``Redaction/isCredentialName(_:)``), such as `Authorization` or `X-Auth-Token`, not at all; any other, such
    /// as `Link`, `Location` or `Content-Location`, scrubbed (``Redaction/scrub(_:removing:)``): the user information
    /// and credential query values of a URL in it, a `Bearer` token, and each of `secrets`, become `REDACTED`.
    private static func withoutCredentials(_ headers: [String: String], removing secrets: [String]) -> [String: String]
    {
        var kept: [String: String] = [:]
        for (name, value) in headers {
            if isSafeHeader(name) {
                kept[name] = value
            } else if !Redaction.isCredentialName(name) {
                kept[name] = Redaction.scrub(value, removing: secrets)
            }
        }
        return kept
    }

    /// The head for `metadata` and `body`, followed by `metadata`; the body follows them as it is.
    ///
    /// - Throws: ``Corrupt`` when the metadata is too long for its length field.
    static func framing(_ metadata: [UInt8], body: Data) throws -> [UInt8] {
        var head = Writer()
        head.append(magic)
        head.append(version)
        head.append(try length(metadata.count))
        head.append(xxh64(metadata))
        head.append(UInt64(body.count))
        head.append(xxh64(body))
        return head.bytes + metadata
    }

    /// Reads the entry for the key whose ``keyBytes(_:salt:)`` are `key` and whose URL is `url` from `descriptor`, an
    /// open regular file of `size` bytes, checking every byte; an empty response URL is `url`.
    ///
    /// The body is read with one read of its checked length into memory rather than mapped: a mapping would crash
    /// the process (`SIGBUS`) if something else truncated the file, and the checksum reads every byte anyway.
    ///
    /// - Throws: ``Corrupt`` for anything but a whole, intact entry for `key`.
    static func read(_ descriptor: Int32, size: Int, key: [UInt8], url requestURL: String) throws
        -> ResponseCache.Entry
    {
        guard size >= headLength else { throw Corrupt() }
        var fileHead = Reader(try readBytes(descriptor, count: headLength, at: 0))
        guard try fileHead.uint32() == magic, try fileHead.uint32() == version else { throw Corrupt() }
        let metadataLength = try fileHead.length()
        let metadataChecksum = try fileHead.uint64()
        let bodyLength = try fileHead.uint64()
        let bodyChecksum = try fileHead.uint64()
        guard metadataLength <= size - headLength, bodyLength == UInt64(size - headLength - metadataLength) else {
            throw Corrupt()
        }
        let metadataBytes = try readBytes(descriptor, count: metadataLength, at: headLength)
        guard xxh64(metadataBytes) == metadataChecksum else { throw Corrupt() }
        var metadata = Reader(metadataBytes)
        guard try metadata.text().elementsEqual(key) else { throw Corrupt() }
        let stored = Double(bitPattern: try metadata.uint64())
        let status = Int64(bitPattern: try metadata.uint64())
        let responseURL = try metadata.text()
        guard stored.isFinite, (100...999).contains(status),
            let url = URL(string: responseURL.isEmpty ? requestURL : String(decoding: responseURL, as: UTF8.self))
        else { throw Corrupt() }
        let fieldCount = try metadata.length()
        // Each field takes at least 8 bytes: a count the bytes can't hold is rejected before the loop runs.
        guard fieldCount <= metadata.remaining / 8 else { throw Corrupt() }
        var headers: [String: String] = [:]
        for _ in 0..<fieldCount {
            let name = String(decoding: try metadata.text(), as: UTF8.self)
            headers[name] = String(decoding: try metadata.text(), as: UTF8.self)
        }
        guard metadata.remaining == 0, headers.count == fieldCount else { throw Corrupt() }
        let bodyOffset = headLength + metadataLength
        var body = Data(count: Int(bodyLength))
        try body.withUnsafeMutableBytes { try readExactly(descriptor, into: $0, at: bodyOffset) }
        guard xxh64(body) == bodyChecksum else { throw Corrupt() }
        guard
            let response = ResponseCache.StoredResponse(
                Response(statusCode: Int(status), headers: headers, body: body, url: url))
        else { throw Corrupt() }
        return ResponseCache.Entry(response: response, stored: Date(timeIntervalSinceReferenceDate: stored))
    }

    /// `count` as a 32-bit length field, or ``Corrupt`` when it doesn't fit in one.
    private static func length(_ count: Int) throws -> UInt32 {
        guard let length = UInt32(exactly: count) else { throw Corrupt() }
        return length
    }

    /// `count` bytes of `descriptor` from `offset`.
    private static func readBytes(_ descriptor: Int32, count: Int, at offset: Int) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try readExactly(descriptor, into: UnsafeMutableRawBufferPointer(buffer), at: offset)
            initialized = count
        }
    }

    /// Fills `buffer` with the bytes of `descriptor` from `offset`, or throws ``Corrupt`` when the file ends first or
    /// can't be read.
    private static func readExactly(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int)
        throws
    {
        guard readAll(descriptor, into: buffer, at: Int64(offset)) else { throw Corrupt() }
    }

    /// Appends little-endian numbers and length-prefixed texts.
    private struct Writer {
        var bytes: [UInt8] = []

        mutating func append(_ value: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }

        mutating func append(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }

        /// Appends the length of `text` as 32 bits, then its bytes.
        mutating func append(text: some Collection<UInt8>) throws {
            append(try CacheFile.length(text.count))
            bytes.append(contentsOf: text)
        }
    }

    /// Reads little-endian numbers and length-prefixed texts, throwing ``Corrupt`` past the end.
    private struct Reader {
        private let bytes: [UInt8]
        private var offset = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// The bytes not read yet.
        var remaining: Int { bytes.count - offset }

        mutating func uint32() throws -> UInt32 {
            UInt32(truncatingIfNeeded: try number(of: 4))
        }

        mutating func uint64() throws -> UInt64 {
            try number(of: 8)
        }

        /// A length of 32 bits, as an `Int`.
        mutating func length() throws -> Int {
            guard let length = Int(exactly: try uint32()) else { throw Corrupt() }
            return length
        }

        /// A length of 32 bits, then that many bytes.
        mutating func text() throws -> ArraySlice<UInt8> {
            try take(try length())
        }

        /// The next `count` bytes.
        mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
            guard count <= remaining else { throw Corrupt() }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        private mutating func number(of length: Int) throws -> UInt64 {
            guard length <= remaining else { throw Corrupt() }
            defer { offset += length }
            return bytes[offset..<offset + length].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
    }
}
