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
        lhs.isUpload == rhs.isUpload && lhs.bytes == rhs.bytes && lhs.expectedBytes == rhs.expectedBytes
    }
}

extension ServerSentEvent: Equatable {
    /// Whether both have the same fields.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type == rhs.type && lhs.data == rhs.data && lhs.id == rhs.id
    }
}

extension WebserviceError {
    /// The argument of an `unusableTrustPolicy` reason with its index, such as `pinnedKeys[1]`, or `-` for a transport
    /// that can't enforce a policy; `nil` for any other reason.
    var unusablePolicyArgument: String? {
        guard case .unusableTrustPolicy(let argument, let index) = reason else { return nil }
        return (argument ?? "-") + (index.map { "[\($0)]" } ?? "")
    }
}
