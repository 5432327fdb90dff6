import Foundation

/// `Content-Range` parsing (`ContentRange`): the whole input is the field value.
///
/// Invariants: a range holds `0 ≤ first ≤ last < total`, and written back as `bytes first-last/total` it reads as
/// itself; a value that doesn't start with the unit is never a range.
func fuzzContentRange(_ input: inout FuzzInput) {
    let value = String(decoding: input.rest, as: UTF8.self)
    guard let range = ContentRange(value) else { return }
    check(range.first >= 0 && range.first <= range.last, "range \(range) from \(value.debugDescription)")
    check(range.total.map { range.last < $0 } ?? true, "range \(range) past its total from \(value.debugDescription)")
    let written = "bytes \(range.first)-\(range.last)/\(range.total.map(String.init) ?? "*")"
    check(ContentRange(written) == range, "\(written) doesn't read back as \(range)")
    let unit = value.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.prefix(5)
    check(String(decoding: unit, as: UTF8.self).lowercased() == "bytes", "a range without the unit: \(value)")
}
