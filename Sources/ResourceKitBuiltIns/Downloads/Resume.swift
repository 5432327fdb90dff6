import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an attempt of a `GET` download knows of its partial file: the request's URL, and the offset and validator it
/// resumes from, or `0` and `nil` when it starts from zero.
struct Resume: Sendable, Equatable {
    /// The request's URL, as an absolute string: a partial file resumes only a download of the same URL, which its
    /// record's tag names (``ResumeRecord/isFor(_:)``).
    var url: String
    /// The bytes in the partial file, which the request asks the server to skip.
    var offset: Int64 = 0
    /// The validator the partial file's response had, sent as `If-Range`.
    var validator: String?

    /// The partial file of `destination` that a download of `url` may resume: one of the user's, private to them
    /// (``SafeFile/Owner/user``), that isn't empty and has no other link, with a record of the user's for the same URL
    /// whose total it hasn't reached and whose validator may be sent; a record with another validator is not one a
    /// download wrote, and the partial file is removed.
    ///
    /// It opens files: call it off the cooperative pool.
    static func found(for destination: URL, url: String) -> Resume? {
        let (file, record) = PartialFile.resumableNames(of: destination, in: destination.deletingLastPathComponent())
        guard let resume = ResumeRecord.read(at: record), resume.isFor(url) else { return nil }
        guard isSendable(resume.validator) else {
            PartialFile.removeResumable(for: destination)
            return nil
        }
        var status = stat()
        guard lstat(file.path, &status) == 0, SafeFile.check(status, owner: .user) == nil, status.st_nlink == 1 else {
            return nil
        }
        let size = Int64(status.st_size)
        guard size > 0, size < resume.total ?? .max else { return nil }
        return Resume(url: url, offset: size, validator: resume.validator)
    }

    /// The file the body of `head`, this attempt's response, goes to, with the offset it goes on from and the whole
    /// length, if known; `nil` when the body goes where a download's body goes without resuming.
    ///
    /// - A `206` to this attempt's `Range` whose `Content-Range` runs from ``offset`` to the end of a whole length it
    ///   names, without a content-coding and with the same validator, if it has one: the partial file, claimed and
    ///   found as the attempt saw it.
    /// - Another accepted response with a strong `ETag` or a `Last-Modified`, without a content-coding: the partial
    ///   file, emptied, with a new record. Without them, the partial file is removed, whatever URL it was for.
    /// - A `206` this attempt didn't ask for, or a response that isn't accepted: `nil`; the partial file stays.
    ///
    /// A partial file or record that can't be claimed or written (another user's, in a directory where it can't be
    /// replaced) leaves the body to a file of a random name, which doesn't resume.
    ///
    /// It opens files: call it off the cooperative pool.
    ///
    /// - Throws: ``ResumeRefused``, after removing the partial file, for a `416` or a `206` that doesn't fit.
    func file(for head: Response, to destination: URL, accepted: Bool) throws -> (
        file: PartialFile, offset: Int64, total: Int64?
    )? {
        let encoded = head.value(forHTTPHeaderField: "Content-Encoding").map { !Self.isIdentity($0) } ?? false
        if offset > 0, head.statusCode == 416 || head.statusCode == 206 {
            guard head.statusCode == 206, !encoded,
                let range = head.value(forHTTPHeaderField: "Content-Range").flatMap(ContentRange.init),
                range.first == offset, let total = range.total, range.last + 1 == total,
                Self.validator(of: head).map({ $0 == validator }) ?? true,
                let file = PartialFile(resumableFor: destination)
            else {
                PartialFile.removeResumable(for: destination)
                throw ResumeRefused()
            }
            let record = file.resumeRecord
            guard file.size == offset, let record, record.isFor(url), record.validator == validator,
                record.total == nil || record.total == total
            else {
                file.remove()
                throw ResumeRefused()
            }
            return (file, offset, total)
        }
        guard accepted, head.statusCode != 206 else { return nil }
        guard !encoded, let validator = Self.validator(of: head), let file = PartialFile(resumableFor: destination)
        else {
            PartialFile.removeResumable(for: destination)
            return nil
        }
        let total = head.value(forHTTPHeaderField: "Content-Length").flatMap { Int64($0) }
        do {
            try file.restart(as: ResumeRecord(url: url, validator: validator, total: total))
        } catch {
            file.remove()
            return nil
        }
        return (file, 0, nil)
    }

    /// The validator a response's body can be resumed with: its `ETag` if it is strong, else its `Last-Modified` if
    /// that is strong too; `nil` for a weak `ETag` alone, or a value that isn't visible ASCII or is over 512 bytes.
    ///
    /// A `Last-Modified` is strong only when the response's `Date` is at least a second later (RFC 9110, sections
    /// 8.8.2.2 and 13.1.5): a file changed twice within its second would otherwise pass for the same.
    static func validator(of head: Response) -> String? {
        if let tag = head.value(forHTTPHeaderField: "ETag"), !tag.hasPrefix("W/") {
            return isSendable(tag) && tag.utf8.count >= 2 && tag.utf8.first == UInt8(ascii: "\"")
                && tag.utf8.last == UInt8(ascii: "\"") ? tag : nil
        }
        guard let modified = head.value(forHTTPHeaderField: "Last-Modified"), isSendable(modified),
            let modifiedDate = RetryPolicy.httpDate(modified),
            let sent = head.value(forHTTPHeaderField: "Date").flatMap(RetryPolicy.httpDate),
            sent.timeIntervalSince(modifiedDate) >= 1
        else { return nil }
        return modified
    }

    /// Whether `value` may go back to the server as `If-Range`: 1 to 512 bytes of visible ASCII and spaces.
    static func isSendable(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 512 && value.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// Whether a `Content-Encoding` value is no coding at all.
    private static func isIdentity(_ value: String) -> Bool {
        asciiLowercased(value.trimmingCharacters(in: .whitespaces)) == "identity"
    }
}

/// A response that can't resume its download's partial file, which is removed.
///
/// `Resuming` sends the request again without `Range`; it never reaches the caller.
struct ResumeRefused: Error {}

/// What a partial file's body is part of, in a record beside it (`.<name>.resume`): the response's validator, its
/// whole length, if known, and a tag that ties both to the request's URL and to the user.
///
/// The tag is the SHA-256 of the user's secret (``ResumeSecret``), the URL, the validator and the length: the URL
/// itself is never written (it may hold a password or an access token), a guess at it can't be tested against the
/// tag without the secret, and no record that another user, or a hand, wrote resumes a download.
struct ResumeRecord: Codable, Equatable, Sendable {
    /// The response's validator, sent back as `If-Range`.
    var validator: String
    /// The whole length of the response's body, if it announced one.
    var total: Int64?
    /// The ``tag(url:validator:total:secret:)`` of the request's URL and of the other fields, in hexadecimal.
    var tag: String

    /// The record of a response with `validator` and `total` to a download of `url`, tagged with `secret`.
    init(url: String, validator: String, total: Int64?, secret: [UInt8] = ResumeSecret.bytes) {
        self.validator = validator
        self.total = total
        tag = Self.tag(url: url, validator: validator, total: total, secret: secret)
    }

    /// Whether the record is for a download of `url`, and was tagged with `secret`, the user's.
    func isFor(_ url: String, secret: [UInt8] = ResumeSecret.bytes) -> Bool {
        tag == Self.tag(url: url, validator: validator, total: total, secret: secret)
    }

    /// The SHA-256 of `secret`, then `url`, `validator` and `total`, each after its length, in hexadecimal.
    private static func tag(url: String, validator: String, total: Int64?, secret: [UInt8]) -> String {
        var bytes = secret
        for text in [url, validator, total.map(String.init) ?? ""] {
            bytes += withUnsafeBytes(of: UInt64(text.utf8.count).littleEndian, Array.init) + Array(text.utf8)
        }
        return sha256(bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// The most bytes a record file may have: a larger one isn't read.
    private static let limit = 16_384

    /// The record at `location`, or `nil` when it is missing, not a regular file of the user's private to them, too
    /// large or not a record.
    static func read(at location: URL) -> ResumeRecord? {
        guard let data = try? SafeFile.contents(of: location.path, owner: .user, limit: limit) else { return nil }
        return try? JSONDecoder().decode(ResumeRecord.self, from: data)
    }

    /// Writes the record to `location` whole or not at all: to a new file beside it, then renamed into place.
    func write(to location: URL) throws {
        let data = try JSONEncoder().encode(self)
        let temporary = location.path + ".\(UInt64.random(in: .min ... .max))"
        guard let descriptor = try? SafeFile.open(temporary, O_WRONLY | O_CREAT | O_EXCL, owner: .user).descriptor
        else { throw PartialFile.failure(.cannotWriteToFile, "The download's record can't be written") }
        let written = data.withUnsafeBytes { writeAll(descriptor, $0) }
        guard close(descriptor) == 0, written, rename(temporary, location.path) == 0 else {
            let error = PartialFile.failure(.cannotWriteToFile, "The download's record can't be written")
            unlink(temporary)
            throw error
        }
    }
}

/// The user's secret that tags a download's ``ResumeRecord``: 32 random bytes in a directory of its own in the user's
/// caches directory (`resourcekit-downloads/.resourcekit-salt`), private to them, read once a process, made when it is
/// missing or invalid, as a persistent cache's salt is (``CacheDirectory``).
///
/// Where that directory can't be used, the secret is the process's own: records then resume only within the process.
enum ResumeSecret {
    /// The secret.
    static let bytes: [UInt8] = {
        if let url = directory, let directory = try? CacheDirectory(url, locking: false),
            let secret = (directory.wasShared ? nil : directory.salt()) ?? (try? directory.replaceSalt())
        {
            return secret
        }
        return CacheFile.randomBytes(CacheFile.saltLength)
    }()

    /// The directory that keeps it.
    static var directory: URL? {
        FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
            .appendingPathComponent("resourcekit-downloads", isDirectory: true)
    }
}

/// A `Content-Range` of bytes (RFC 9110, section 14.4): `bytes first-last/total`, or `bytes first-last/*` when
/// the whole length isn't known.
///
/// The value comes from the server: it is read byte by byte, numbers of at most 18 digits, and it holds only when
/// `first ≤ last` and `last < total`.
struct ContentRange: Equatable, Sendable {
    /// The offset of the first byte the body holds.
    let first: Int64
    /// The offset of its last byte.
    let last: Int64
    /// The whole representation's length, or `nil` for `*`.
    let total: Int64?

    /// Reads `value`; `nil` for anything else, an unsatisfied range (`bytes */1000`) included.
    init?(_ value: String) {
        var bytes = Substring(value).utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
        let unit = Array("bytes".utf8)
        guard bytes.count > unit.count, zip(bytes.prefix(unit.count), unit).allSatisfy({ $0 | 0x20 == $1 }),
            bytes.dropFirst(unit.count).first == UInt8(ascii: " ")
        else { return nil }
        bytes = bytes.dropFirst(unit.count).drop { $0 == UInt8(ascii: " ") }
        guard let first = Self.number(&bytes), bytes.popFirst() == UInt8(ascii: "-"),
            let last = Self.number(&bytes), bytes.popFirst() == UInt8(ascii: "/"), first <= last
        else { return nil }
        if bytes.elementsEqual("*".utf8) {
            total = nil
        } else {
            guard let total = Self.number(&bytes), bytes.isEmpty, last < total else { return nil }
            self.total = total
        }
        self.first = first
        self.last = last
    }

    /// The decimal number at the start of `bytes`, taken off it: 1 to 18 digits, so it never overflows.
    private static func number(_ bytes: inout Substring.UTF8View.SubSequence) -> Int64? {
        var value: Int64 = 0
        var digits = 0
        while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            guard digits < 18 else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            digits += 1
            bytes.removeFirst()
        }
        return digits > 0 ? value : nil
    }
}
