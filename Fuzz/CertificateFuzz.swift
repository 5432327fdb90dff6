import Foundation

/// A server certificate's public key for pinning (`subjectPublicKeyInfo(ofCertificate:)`, `CheckedTrust.pin(of:)`),
/// a policy's roots, pins and PEM identity (`TrustPolicy.checked()`), and a transport's policies by host, whose
/// host a server's redirect names (`TrustHosts`): the whole input is the certificate, the root, the pin, the
/// identity, the key and the host.
///
/// Invariants: a SubjectPublicKeyInfo found is a SEQUENCE inside the input, and the pin is its SHA-256; a pin read is
/// 32 bytes; a checked policy's roots each have a key; a PEM identity read has a certificate and one key block; a
/// host key read matches its own host in any ASCII letter case, with or without a trailing dot.
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
    fuzzIdentityAndHosts(bytes, text: text)
}

/// The PEM identity and the host key parts of ``fuzzCertificate(_:)``.
private func fuzzIdentityAndHosts(_ bytes: Data, text: String) {
    if let identity = try? TrustPolicy(clientIdentity: bytes).checked().identity, let pem = identity.pem {
        check(!pem.certificates.isEmpty, "a PEM identity without a certificate")
        check(pem.key.starts(with: Data("-----BEGIN ".utf8)), "a key block that isn't one")
    }
    for block in TrustPolicy.pemBlocks(in: bytes) {
        check(block.block.starts(with: Data("-----BEGIN \(block.label)-----".utf8)), "a block without its BEGIN")
    }
    guard let hosts = try? TrustHosts(fallback: 0, hosts: [text: 1]) else { return }
    check(text.utf8.allSatisfy { $0 < 0x80 }, "a key outside ASCII")
    guard !text.utf8.starts(with: "*.".utf8) else {
        check(hosts.policy(forHost: String(decoding: text.utf8.dropFirst(2), as: UTF8.self)) == 0, "a bare wildcard")
        return
    }
    let upper = String(decoding: text.utf8.map { (0x61...0x7A).contains($0) ? $0 ^ 0x20 : $0 }, as: UTF8.self)
    for host in [text, upper, text.hasSuffix(".") ? String(text.dropLast()) : text + "."] {
        check(hosts.policy(forHost: host) == 1, "\(host) doesn't match its own key")
    }
}
