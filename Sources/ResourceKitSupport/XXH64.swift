import Foundation

/// XXH64, the 64-bit xxHash of `bytes` with `seed`: a fast non-cryptographic hash, for names and checksums of the
/// persistent cache's files.
///
/// It detects corruption and spreads keys; it is no defence against someone who forges a file on purpose, which the
/// cache guards against by checking everything it reads. The algorithm is xxHash's specification, version 0.1.1,
/// reading the input in little-endian order whatever the machine's.
public func xxh64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
    let count = bytes.count
    var offset = 0
    var hash: UInt64
    if count >= 32 {
        var lanes = (seed &+ XXH64.prime1 &+ XXH64.prime2, seed &+ XXH64.prime2, seed, seed &- XXH64.prime1)
        while offset + 32 <= count {
            lanes.0 = XXH64.round(lanes.0, XXH64.word(bytes, offset))
            lanes.1 = XXH64.round(lanes.1, XXH64.word(bytes, offset + 8))
            lanes.2 = XXH64.round(lanes.2, XXH64.word(bytes, offset + 16))
            lanes.3 = XXH64.round(lanes.3, XXH64.word(bytes, offset + 24))
            offset += 32
        }
        hash =
            XXH64.rotate(lanes.0, 1) &+ XXH64.rotate(lanes.1, 7) &+ XXH64.rotate(lanes.2, 12)
            &+ XXH64.rotate(lanes.3, 18)
        hash = XXH64.merge(XXH64.merge(XXH64.merge(XXH64.merge(hash, lanes.0), lanes.1), lanes.2), lanes.3)
    } else {
        hash = seed &+ XXH64.prime5
    }
    hash &+= UInt64(count)
    while offset + 8 <= count {
        hash ^= XXH64.round(0, XXH64.word(bytes, offset))
        hash = XXH64.rotate(hash, 27) &* XXH64.prime1 &+ XXH64.prime4
        offset += 8
    }
    if offset + 4 <= count {
        hash ^=
            UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            &* XXH64.prime1
        hash = XXH64.rotate(hash, 23) &* XXH64.prime2 &+ XXH64.prime3
        offset += 4
    }
    while offset < count {
        hash ^= UInt64(bytes[offset]) &* XXH64.prime5
        hash = XXH64.rotate(hash, 11) &* XXH64.prime1
        offset += 1
    }
    hash ^= hash >> 33
    hash &*= XXH64.prime2
    hash ^= hash >> 29
    hash &*= XXH64.prime3
    hash ^= hash >> 32
    return hash
}

/// ``xxh64(_:seed:)`` of the bytes of an array, a `Data` or another contiguous collection of bytes.
public func xxh64(_ bytes: some ContiguousBytes, seed: UInt64 = 0) -> UInt64 {
    bytes.withUnsafeBytes { xxh64($0, seed: seed) }
}

/// The constants and steps of ``xxh64(_:seed:)``.
private enum XXH64 {
    static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The little-endian 64-bit word at `offset`.
    public static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// One accumulator step.
    public static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    /// `hash` with one of the four accumulators merged into it.
    public static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    /// `value` rotated left by `bits`.
    public static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}
