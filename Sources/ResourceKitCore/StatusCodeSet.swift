/// Status codes a resource accepts (``Resource/acceptableStatusCodes``): a range, a list or a set of them.
///
/// `Range<Int>`, `ClosedRange<Int>`, their partial forms (`200...`), `Set<Int>` and `[Int]` conform, so each spelling
/// reads as it is written:
///
/// ```swift
/// var page = Resource<[Episode]>(get: episodesURL)
/// page.acceptableStatusCodes = [200, 304]
/// page.acceptableStatusCodes = 200...299
/// ```
public protocol StatusCodeSet: Sendable {
    /// Whether `statusCode` is one of the set's.
    func contains(_ statusCode: Int) -> Bool
}

extension Range: StatusCodeSet where Bound == Int {}
extension ClosedRange: StatusCodeSet where Bound == Int {}
extension PartialRangeFrom: StatusCodeSet where Bound == Int {}
extension PartialRangeUpTo: StatusCodeSet where Bound == Int {}
extension PartialRangeThrough: StatusCodeSet where Bound == Int {}
extension Set: StatusCodeSet where Element == Int {}
extension Array: StatusCodeSet where Element == Int {}
