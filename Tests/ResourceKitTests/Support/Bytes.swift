extension StringProtocol {
    /// Whether the UTF-8 bytes of `other` occur in this text's: a match on bytes, unlike `contains(_:)`, which compares
    /// `Character`s and so doesn't find `tok` in `tok\u{301}`.
    func containsBytes(of other: some StringProtocol) -> Bool {
        let bytes = Array(utf8)
        let needle = Array(other.utf8)
        guard !needle.isEmpty else { return true }
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
