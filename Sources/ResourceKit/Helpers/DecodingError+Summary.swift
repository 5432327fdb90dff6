extension DecodingError {
    /// A short account of the error and where it happened, such as `missing key "title" at [1]`, for messages that
    /// list several errors.
    var summary: String {
        func at(_ context: Context) -> String {
            CodingPath.location(context.codingPath)
        }
        return switch self {
        case .typeMismatch(let type, let context):
            "expected \(type) at \(at(context)) (\(context.debugDescription))"
        case .valueNotFound(let type, let context):
            "expected \(type) but found null at \(at(context))"
        case .keyNotFound(let key, let context):
            "missing key \(key.stringValue.debugDescription) at \(at(context))"
        case .dataCorrupted(let context):
            "data corrupted at \(at(context)) (\(context.debugDescription))"
        @unknown default:
            String(describing: self)
        }
    }
}
