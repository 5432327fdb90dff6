extension DecodingError {
    /// A short account of the error and where it happened, such as `missing key "title" at [1]`, in one line, for
    /// messages that list several errors.
    public var summary: String {
        func at(_ context: Context) -> String {
            CodingPath.location(context.codingPath)
        }
        return switch self {
        case .typeMismatch(let type, let context):
            "expected \(type) at \(at(context)) (\(ErrorText.oneLine(context.debugDescription)))"
        case .valueNotFound(let type, let context):
            "expected \(type) but found null at \(at(context))"
        case .keyNotFound(let key, let context):
            "missing key \(key.stringValue.debugDescription) at \(at(context))"
        case .dataCorrupted(let context):
            "data corrupted at \(at(context)) (\(ErrorText.oneLine(context.debugDescription)))"
        @unknown default:
            ErrorText.oneLine(String(describing: self))
        }
    }
}

extension DecodingError {
    /// The error every built-in format's parse throws when the body as a whole is not what the format promises:
    /// `dataCorrupted` at the top level, with `reason` as its description.
    public static func corruptedBody(_ reason: String, underlying: (any Error)? = nil) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: reason, underlyingError: underlying))
    }
}
