import ResourceKitCore
internal import ResourceKitSupport

/// A JSON array decoded leniently: the elements that decode, and, for each one that doesn't, its index and why.
///
/// Use it where showing the valid elements beats showing nothing; nothing is dropped silently. See
/// <doc:DefiningResources>.
///
/// ```swift
/// let feed = Resource<LenientArray<Episode>>(get: feedURL, at: ["feed", "entry"])
/// ```
public struct LenientArray<Element> {
    /// The elements that decoded, in their order in the array.
    public var elements: [Element]
    /// Why each element that didn't decode failed, by its zero-based index in the array; empty when every one decoded.
    ///
    /// Each error's coding path leads to the problem through the element, such as `[2].title`. An error that isn't a
    /// `DecodingError`, such as a model's own validation error thrown from `init(from:)`, is wrapped in
    /// `DecodingError.dataCorrupted` with the original as its `underlyingError`. Throw one when a skipped element
    /// matters after all.
    public var failures: [Int: DecodingError]

    /// Each of ``failures`` in one line, in the order of the elements.
    ///
    /// Such as `element 2: missing key "title" at [2]`: what a log shows rather than a `DecodingError`'s dump. See
    /// <doc:DefiningResources>.
    ///
    /// ```swift
    /// for line in feed.failureDescriptions { print("Skipped \(line)") }
    /// ```
    public var failureDescriptions: [String] {
        failures.sorted { $0.key < $1.key }.map { "element \($0.key): \($0.value.summary)" }
    }

    /// A lenient array of its parts.
    ///
    /// A test stubs one by decoding JSON, which yields real failures with their coding paths, or by setting
    /// ``elements`` and ``failures`` of a decoded one.
    init(elements: [Element], failures: [Int: DecodingError]) {
        self.elements = elements
        self.failures = failures
    }
}

extension LenientArray: Sendable where Element: Sendable {}

extension LenientArray: Decodable where Element: Decodable {
    /// Decodes every element of an array it can, and records the index and error of each one it can't.
    ///
    /// ```swift
    /// let lenient = try JSONDecoder().decode(LenientArray<Episode>.self, from: body)
    /// ```
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: The decoder's `DecodingError.typeMismatch` when the value is not an array, and its error when the
    ///   data is not valid. Invalid elements don't throw; they become ``failures``.
    public init(from decoder: any Decoder) throws {
        var array = try decoder.unkeyedContainer()
        var elements: [Element] = []
        var failures: [Int: DecodingError] = [:]
        while !array.isAtEnd {
            let index = array.currentIndex
            // One step per element, whether it decodes or not: a failed `decode` doesn't advance every container.
            let element = try array.superDecoder()
            do {
                elements.append(try element.singleValueContainer().decode(Element.self))
            } catch {
                failures[index] = DecodingError(index: index, error: error, codingPath: element.codingPath)
            }
        }
        self.init(elements: elements, failures: failures)
    }
}

/// How a lenient array and a stream report an element that didn't decode: a `DecodingError` whose coding path leads
/// through the element, such as `[2].title`.
extension DecodingError {
    /// `error`, which decoding the element at `index` threw, as a `DecodingError` whose coding path leads through the
    /// element.
    ///
    /// - Parameters:
    ///   - index: The element's zero-based position.
    ///   - error: What decoding the element threw. Any other error is wrapped in `dataCorrupted`, as its
    ///     `underlyingError`.
    ///   - codingPath: The element's coding path in the document; empty for a stream's element, which then gets its
    ///     index alone.
    init(index: Int, error: any Error, codingPath: [any CodingKey]) {
        let element = codingPath.isEmpty ? [AnyCodingKey(intValue: index)] : codingPath
        guard let error = error as? DecodingError else {
            let context = Context(
                codingPath: element, debugDescription: "The element threw \(error).", underlyingError: error)
            self = .dataCorrupted(context)
            return
        }
        /// `context` with its coding path leading through the element.
        func through(_ context: Context) -> Context {
            let keys = context.codingPath
            let isThrough =
                keys.count >= element.count
                && zip(keys, element).allSatisfy { $0.stringValue == $1.stringValue && $0.intValue == $1.intValue }
            guard !isThrough else { return context }
            return Context(
                codingPath: element + keys, debugDescription: context.debugDescription,
                underlyingError: context.underlyingError)
        }
        self =
            switch error {
            case .typeMismatch(let type, let context): .typeMismatch(type, through(context))
            case .valueNotFound(let type, let context): .valueNotFound(type, through(context))
            case .keyNotFound(let key, let context): .keyNotFound(key, through(context))
            case .dataCorrupted(let context): .dataCorrupted(through(context))
            @unknown default: error
            }
    }
}
