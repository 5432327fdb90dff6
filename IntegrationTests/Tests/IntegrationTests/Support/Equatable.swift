import ResourceKit

// Comparisons for the tests' expectations: the library's values aren't `Equatable` themselves.

extension TransferProgress: @retroactive Equatable {
    /// Whether both have the same fields.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.isUpload == rhs.isUpload && lhs.bytes == rhs.bytes && lhs.expectedBytes == rhs.expectedBytes
    }
}

extension ServerSentEvent: @retroactive Equatable {
    /// Whether both have the same fields.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type == rhs.type && lhs.data == rhs.data && lhs.id == rhs.id
    }
}

extension WebserviceError {
    /// The sentence of an ``WebserviceError/Reason/unusableTrustPolicy(_:)`` reason; `nil` for any other.
    var trustPolicyProblem: String? {
        if case .unusableTrustPolicy(let problem) = reason { problem } else { nil }
    }
}
