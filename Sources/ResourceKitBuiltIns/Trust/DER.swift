import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// The byte range of the SubjectPublicKeyInfo (its tag, length and contents) in the DER X.509 certificate
/// `certificate` (RFC 5280, 4.1), or `nil` when `certificate` isn't one.
///
/// It reads a server's bytes, so it is strict: single-byte tags, definite lengths of at most four bytes in their
/// shortest form, each inside its parent, and the certificate filling `certificate` exactly.
public func subjectPublicKeyInfo(ofCertificate certificate: UnsafeRawBufferPointer) -> Range<Int>? {
    var outer = DERReader(certificate, in: 0..<certificate.count)
    guard let whole = outer.read(tag: 0x30), outer.isAtEnd else { return nil }
    var inCertificate = DERReader(certificate, in: whole.contents)
    guard let tbs = inCertificate.read(tag: 0x30) else { return nil }
    var fields = DERReader(certificate, in: tbs.contents)
    if fields.peekTag == 0xA0 {
        guard fields.read(tag: 0xA0) != nil else { return nil }  // [0] EXPLICIT version
    }
    // serialNumber, signature, issuer, validity, subject
    for tag: UInt8 in [0x02, 0x30, 0x30, 0x30, 0x30] {
        guard fields.read(tag: tag) != nil else { return nil }
    }
    return fields.read(tag: 0x30)?.whole
}

/// The SubjectPublicKeyInfo's byte range in the DER certificate held by a `Data` or an array.
public func subjectPublicKeyInfo(ofCertificate certificate: some ContiguousBytes) -> Range<Int>? {
    certificate.withUnsafeBytes { subjectPublicKeyInfo(ofCertificate: $0) }
}

/// Reads DER elements one after another within a range of bytes.
private struct DERReader {
    /// An element's place: from its tag to its end, and its contents.
    struct Element {
        let whole: Range<Int>
        let contents: Range<Int>
    }

    private let bytes: UnsafeRawBufferPointer
    private var position: Int
    private let end: Int

    init(_ bytes: UnsafeRawBufferPointer, in range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    var isAtEnd: Bool { position == end }

    /// The next element's tag, `nil` at the end.
    var peekTag: UInt8? { position < end ? bytes[position] : nil }

    /// The next element when its tag is `tag` and its length fits; moves past it.
    mutating func read(tag: UInt8) -> Element? {
        let start = position
        guard position < end, bytes[position] == tag else { return nil }
        position += 1
        guard position < end else { return nil }
        let first = bytes[position]
        position += 1
        var length = Int(first)
        if first >= 0x80 {
            // Long form: 1 to 4 length bytes, no leading zero, and only for lengths short form can't say.
            let count = Int(first & 0x7F)
            guard (1...4).contains(count), end - position >= count, bytes[position] != 0 else { return nil }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[position])
                position += 1
            }
            guard length >= 0x80 else { return nil }
        }
        guard end - position >= length else { return nil }
        let contents = position..<position + length
        position += length
        return Element(whole: start..<position, contents: contents)
    }
}
