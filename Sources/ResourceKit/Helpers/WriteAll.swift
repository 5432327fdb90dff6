import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes all of `bytes` to the open file `file`, again after an interruption; `false` when it can't, with `errno`
/// saying why.
func writeAll(_ file: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var written = 0
    while written < bytes.count, let start = bytes.baseAddress {
        let result = write(file, start + written, bytes.count - written)
        if result < 0 && errno == EINTR { continue }
        guard result > 0 else { return false }
        written += result
    }
    return true
}
