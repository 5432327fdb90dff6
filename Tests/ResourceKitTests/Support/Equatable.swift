import ResourceKit

// Comparisons for the tests' expectations: the library's values aren't `Equatable` themselves.

extension Payload: Equatable where Model: Equatable {
    /// Whether both have the same fields.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.one(let left), .one(let right)): left == right
        case (.array(let left), .array(let right)): left == right
        case (.dictionary(let left), .dictionary(let right)): left == right
        default: false
        }
    }
}

extension TransferProgress: Equatable {
    /// Whether both have the same fields.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.direction == rhs.direction && lhs.bytes == rhs.bytes && lhs.expectedBytes == rhs.expectedBytes
    }
}

extension ServerSentEvent: Equatable {
    /// Whether both have the same fields.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type == rhs.type && lhs.data == rhs.data && lhs.id == rhs.id
    }
}

extension TrustPolicyError: Equatable {
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
