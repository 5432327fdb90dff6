import ResourceKit

// Comparisons for the tests' expectations: the library's values aren't `Equatable` themselves.

extension TransferProgress: @retroactive Equatable {
    /// Whether both have the same fields.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.direction == rhs.direction && lhs.bytes == rhs.bytes && lhs.expectedBytes == rhs.expectedBytes
    }
}

extension ServerSentEvent: @retroactive Equatable {
    /// Whether both have the same fields.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type == rhs.type && lhs.data == rhs.data && lhs.id == rhs.id
    }
}

extension TrustPolicyError: @retroactive Equatable {
    /// Whether both are the same case with the same index.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.malformedPin(let left), .malformedPin(let right)): left == right
        case (.unreadableRoot(let left), .unreadableRoot(let right)): left == right
        case (.unreadableIdentity, .unreadableIdentity), (.unsupportedByTransport, .unsupportedByTransport): true
        default: false
        }
    }
}
