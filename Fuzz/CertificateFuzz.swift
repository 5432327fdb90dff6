import Foundation

/// A server certificate's public key for pinning (`subjectPublicKeyInfo(ofCertificate:)`, `CheckedTrust.pin(of:)`),
/// and a policy's roots and pins (`TrustPolicy.checked()`): the whole input is the certificate, the root and the pin.
///
/// Invariants: a SubjectPublicKeyInfo found is a SEQUENCE inside the input, and the pin is its SHA-256; a pin read is
/// 32 bytes; a checked policy's roots each have a key.
func fuzzCertificate(_ input: inout FuzzInput) {
    let bytes = input.rest
    if let range = subjectPublicKeyInfo(ofCertificate: bytes) {
        check(range.lowerBound >= 0 && range.upperBound <= bytes.count, "\(range) outside \(bytes.count) bytes")
        check(bytes[bytes.startIndex + range.lowerBound] == 0x30, "a SubjectPublicKeyInfo that isn't a SEQUENCE")
        let key = bytes[(bytes.startIndex + range.lowerBound)..<(bytes.startIndex + range.upperBound)]
        check(CheckedTrust.pin(of: bytes) == Data(sha256(Data(key))), "the pin isn't the key's SHA-256")
    } else {
        check(CheckedTrust.pin(of: bytes) == nil, "a pin without a key")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    if let digest = TrustPolicy.digest(ofPin: text) {
        check(digest.count == 32, "a pin of \(digest.count) bytes")
    }
    if let checked = try? TrustPolicy(additionalRoots: [bytes], pinnedKeys: [text]).checked() {
        let roots = checked.roots.joined()
        check(roots.allSatisfy { subjectPublicKeyInfo(ofCertificate: $0) != nil }, "a root without a key")
        check(checked.pins.count == 1, "a pin lost")
    }
}
