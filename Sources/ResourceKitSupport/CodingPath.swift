/// How error messages write a place inside a JSON document: in the notation of `jq`.
public enum CodingPath {
    /// One step into a document: an object key or an array index.
    public enum Component: Hashable, Sendable {
        /// The value for this key of a JSON object.
        case key(String)
        /// The element at this zero-based position of a JSON array.
        case index(Int)
    }

    /// `components` as `jq` writes them: `.key`, `["unusual key"]`, `[index]`; `.` for none.
    public static func describe(_ components: [Component]) -> String {
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
    public static func describe(_ codingPath: [any CodingKey]) -> String {
        describe(codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) })
    }

    /// Where a coding path leads, for error messages: `the top level`, or the path as `jq` writes it.
    public static func location(_ codingPath: [any CodingKey]) -> String {
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
