import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A persistent cache's entry file read back (`CacheFile.read`), its metadata behind a valid head.
///
/// The first byte picks how many of the rest are the metadata, which gets a valid head (magic, version, lengths and
/// checksums) so that the reader's metadata parse is reached; the rest is the body. The key asked for is the
/// metadata's own first text, when it has one (a salted digest of the URL, then one of the header fields), so that the
/// rest is parsed; the request's URL, which an empty response URL stands for, is a fixed one.
///
/// Invariants: no crash; an entry read back has the body written and a status from 100 to 999.
func fuzzCacheFile(_ input: inout FuzzInput) {
    let share = Int(input.byte())
    let rest = [UInt8](input.rest)
    let metadata = Array(rest.prefix(rest.count * share / 255))
    let body = Data(rest.dropFirst(metadata.count))
    guard let framed = try? CacheFile.framing(metadata, body: body) else { return }
    let file = framed + [UInt8](body)
    // The key the metadata names first: a little-endian 32-bit length, then that many bytes.
    var key: [UInt8] = []
    if metadata.count >= 4 {
        let length = metadata.prefix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        key = Array(metadata.dropFirst(4).prefix(length))
    }
    let path = "/dev/shm/resourcekit-fuzz-cache-file-\(getpid())"
    let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return }
    defer {
        close(descriptor)
        unlink(path)
    }
    guard (file.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }) == file.count else { return }
    let url = "https://a.example/x"
    guard let entry = try? CacheFile.read(descriptor, size: file.count, key: key, url: url) else { return }
    check(entry.response.body == body, "an entry read back with another body")
    check((100...999).contains(entry.response.statusCode), "status \(entry.response.statusCode) read back")
}
