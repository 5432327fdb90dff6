import Foundation

/// A body gathered in memory as its chunks arrive.
///
/// It grows by doubling (`Data` alone grows to the exact size, so a body of many chunks would be copied again with
/// each), never past the length the response announced or the body's limit unless the bytes that arrived do: a header
/// alone never makes it allocate.
public struct GrowingData: Sendable {
    /// The bytes so far.
    public var data = Data()
    /// The bytes ``data`` has room for, as far as this buffer made it.
    private var reserved = 0

    /// An empty body.
    public init() {}

    /// Appends `bytes` to a body announced as `expected` bytes long, within `limit` bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer, expected: Int64?, limit: Int?) {
        guard let start = bytes.baseAddress else { return }
        let needed = data.count + bytes.count
        if needed > reserved {
            var room = max(needed, reserved * 2, 65_536)
            if let expected, expected >= Int64(needed) { room = min(room, Int(clamping: expected)) }
            if let limit { room = min(room, max(needed, limit)) }
            data.reserveCapacity(room)
            reserved = room
        }
        data.append(start.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }
}
