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
    /// The elements that didn't decode, in their order in the array.
    public var failures: [ElementFailure]

    /// Creates a lenient array from its parts, for instance to stub a resource's result in a test.
    ///
    /// ```swift
    /// let partial = LenientArray(elements: [episode], failures: [])
    /// ```
    ///
    /// - Parameters:
    ///   - elements: The elements that decoded.
    ///   - failures: The elements that didn't decode.
    public init(elements: [Element], failures: [ElementFailure]) {
        self.elements = elements
        self.failures = failures
    }

    /// Whether every element decoded.
    public var isComplete: Bool {
        failures.isEmpty
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
        var failures: [ElementFailure] = []
        while !array.isAtEnd {
            let index = array.currentIndex
            // One step per element, whether it decodes or not: a failed `decode` doesn't advance every container.
            let element = try array.superDecoder()
            do {
                elements.append(try element.singleValueContainer().decode(Element.self))
            } catch {
                failures.append(ElementFailure(index: index, error: error, codingPath: element.codingPath))
            }
        }
        self.init(elements: elements, failures: failures)
    }
}

/// An element of a ``LenientArray`` that didn't decode: its index in the array and the decoding error.
///
/// It is an `Error`, so you can throw it when a skipped element matters after all:
///
/// ```swift
/// if let failure = episodes.failures.first { throw failure }
/// ```
public struct ElementFailure: Error, Sendable, CustomStringConvertible {
    /// The element's zero-based position in the array.
    public var index: Int
    /// Why the element didn't decode, with the coding path to the problem, such as `[2].title`.
    ///
    /// An error that isn't a `DecodingError`, such as a model's own validation error thrown from `init(from:)`, is
    /// wrapped in `DecodingError.dataCorrupted` with the original as its `underlyingError`.
    public var error: DecodingError

    /// Creates a failure from its parts, for instance to stub a lenient array in a test.
    public init(index: Int, error: DecodingError) {
        self.index = index
        self.error = error
    }

    /// Wraps whatever decoding the element at `codingPath` threw.
    init(index: Int, error: any Error, codingPath: [any CodingKey]) {
        if let error = error as? DecodingError {
            self.init(index: index, error: error)
        } else {
            let context = DecodingError.Context(
                codingPath: codingPath, debugDescription: "The element threw \(error).", underlyingError: error)
            self.init(index: index, error: .dataCorrupted(context))
        }
    }

    /// A one-line account of the failure, such as `element 2: missing key "title" at [2]`.
    public var description: String {
        "element \(index): \(error.summary)"
    }
}
