/// The location of a value inside a JSON document: object keys and array indices, from the top level down.
///
/// A string literal is a key and an integer literal an index; keys are matched after the decoder's
/// `keyDecodingStrategy`. See <doc:DefiningResources>.
///
/// ```swift
/// let entries: CodingPath = ["feed", "entry"]  // {"feed": {"entry": …}}
/// ```
public struct CodingPath: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// One step of a ``CodingPath``: an object key or an array index.
    ///
    /// A string literal makes a key and an integer literal an index, so a path reads `["items", 0, "name"]`.
    public enum Component: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        /// The value for this key of a JSON object.
        case key(String)
        /// The element at this zero-based position of a JSON array.
        case index(Int)

        /// Creates a key component from a string literal, such as `"feed"`.
        ///
        /// - Parameter value: The object key.
        public init(stringLiteral value: String) {
            self = .key(value)
        }

        /// Creates an index component from an integer literal, such as `0`.
        ///
        /// - Parameter value: The zero-based array index.
        public init(integerLiteral value: Int) {
            self = .index(value)
        }
    }

    /// The steps from the top of the document to the value, outermost first.
    public var components: [Component]

    /// Creates a path from its steps.
    ///
    /// ```swift
    /// let path = CodingPath(["feed", "entry"].map(CodingPath.Component.key))
    /// ```
    ///
    /// - Parameter components: The steps from the top of the document to the value, outermost first.
    public init(_ components: [Component]) {
        self.components = components
    }

    /// Creates a path from an array literal of keys and indices, such as `["items", 0]`.
    ///
    /// - Parameter elements: The steps from the top of the document to the value, outermost first.
    public init(arrayLiteral elements: Component...) {
        self.init(elements)
    }

    /// The path in the notation of `jq`, such as `.feed.entry[0]` or `["key.with.dots"]`; `.` for the empty path.
    public var description: String {
        Self.describe(components)
    }

    /// `components` as `jq` writes them: `.key`, `["unusual key"]`, `[index]`.
    static func describe(_ components: [Component]) -> String {
        let text = components.map { component in
            switch component {
            case .index(let index): "[\(index)]"
            case .key(let key) where isPlain(key): ".\(key)"
            case .key(let key): "[\(key.debugDescription)]"
            }
        }
        .joined()
        return text.isEmpty ? "." : text
    }

    /// A decoder's coding path as `jq` writes it; an integer key is an array index.
    static func describe(_ codingPath: [any CodingKey]) -> String {
        describe(codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) })
    }

    /// Where a coding path leads, for error messages: `the top level`, or the path as `jq` writes it.
    static func location(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top level" : describe(codingPath)
    }

    /// Whether `key` can follow a dot unquoted: a letter or `_`, then letters, digits, `_` or `-`.
    private static func isPlain(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else {
            return false
        }
        return key.unicodeScalars.allSatisfy {
            $0 == "_" || $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
        }
    }
}
