import Foundation

/// Why a JSON resource's parse (``Resource/init(url:method:headers:parseJSON:)``) rejected a response body.
public enum JSONResourceError: Error, Sendable, CustomStringConvertible {
    /// The body is not JSON; the associated value is `JSONSerialization`'s error.
    case invalidJSON(any Error)
    /// The body is JSON, but the `parseJSON` closure returned `nil` for it.
    ///
    /// `expected` names the model type; `found` names the kind of the top-level JSON value (`object`, `array`,
    /// `string`, `null`, or `number or boolean`).
    case unexpectedShape(expected: String, found: String)

    /// A one-line account of the failure.
    public var description: String {
        switch self {
        case .invalidJSON(let error):
            "The body is not valid JSON: "
                + ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? String(describing: error))
        case .unexpectedShape(let expected, let found): "Expected JSON for \(expected), found a top-level \(found)."
        }
    }
}
