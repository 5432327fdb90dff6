import ResourceKit

// Comparisons for the tests' expectations: the library's values aren't `Equatable` themselves.

extension TransferProgress: @retroactive Equatable {
    /// Whether both have the same fields.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.direction == rhs.direction && lhs.bytes == rhs.bytes && lhs.expectedBytes == rhs.expectedBytes
    }
}
