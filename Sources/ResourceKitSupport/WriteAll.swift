import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes all of `bytes` to the open file `file`, at its position or from `offset`, again after an interruption;
/// `false` when it can't, with `errno` saying why.
public func writeAll(_ file: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64? = nil) -> Bool {
    var written = 0
    while written < bytes.count, let start = bytes.baseAddress {
        let result =
            if let offset {
                pwrite(file, start + written, bytes.count - written, off_t(offset) + off_t(written))
            } else {
                write(file, start + written, bytes.count - written)
            }
        if result < 0 && errno == EINTR { continue }
        guard result > 0 else { return false }
        written += result
    }
    return true
}

/// Fills `buffer` with the bytes of the open file `file` from `offset`, again after an interruption; `false` when the
/// file ends first or can't be read, with `errno` saying why for the latter.
public func readAll(_ file: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Bool {
    var done = 0
    while done < buffer.count, let start = buffer.baseAddress {
        let result = pread(file, start + done, buffer.count - done, off_t(offset) + off_t(done))
        if result < 0 && errno == EINTR { continue }
        guard result > 0 else { return false }
        done += result
    }
    return true
}
