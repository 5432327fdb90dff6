import Foundation
import ResourceKit
import Testing

/// The associated values of `error` when it is the case `values` names; otherwise an issue saying which case arrived,
/// and a thrown error that ends the test, as `#require` does.
///
/// `values` is one of the case accessors below, written as a key path:
///
/// ```swift
/// let error = try #require(throws: WebserviceError.self) { try resource.value(from: body, response: response) }
/// let (underlying, response) = try requireCase(\.parsing, of: error)
/// ```
func requireCase<E, Values>(
    _ values: KeyPath<E, Values?>,
    of error: E?,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> Values {
    if let error, let found = error[keyPath: values] { return found }
    Issue.record("Expected \(values), got \(error.map { "\($0)" } ?? "nil")", sourceLocation: sourceLocation)
    throw UnexpectedCase()
}

/// The error ``requireCase(_:of:sourceLocation:)`` throws when the error is another case.
struct UnexpectedCase: Error {}

// MARK: Case accessors: each case's associated values, or `nil` for another case

extension WebserviceError {
    var transport: (any Error)? { if case .transport(let error) = reason { error } else { nil } }
    var encoding: (any Error)? { if case .encoding(let error) = reason { error } else { nil } }
    var nonHTTPResponse: Data? { if case .nonHTTPResponse(let body) = reason { body } else { nil } }
    var unacceptableStatus: Response? { if case .unacceptableStatus(let response) = reason { response } else { nil } }
    var apiError: (error: any Error, response: Response)? {
        if case .apiError(let error, let response) = reason { (error, response) } else { nil }
    }
    var parsing: (error: any Error, response: Response)? {
        if case .parsing(let error, let response) = reason { (error, response) } else { nil }
    }
    var bodyTooLarge: Int? { if case .bodyTooLarge(let limit) = reason { limit } else { nil } }
    var interrupted: (error: any Error, response: Response, elements: Int, bytes: Int)? {
        if case .interrupted(let error, let response, let elements, let bytes) = reason {
            (error, response, elements, bytes)
        } else {
            nil
        }
    }
}

extension DecodingError {
    var keyNotFound: (key: any CodingKey, context: Context)? {
        if case .keyNotFound(let key, let context) = self { (key, context) } else { nil }
    }
    var typeMismatch: (type: Any.Type, context: Context)? {
        if case .typeMismatch(let type, let context) = self { (type, context) } else { nil }
    }
    var dataCorrupted: Context? { if case .dataCorrupted(let context) = self { context } else { nil } }
}

extension WebserviceError.Reason {
    /// Whether it is ``WebserviceError/Reason/timedOut(after:)``.
    var isTimedOut: Bool {
        if case .timedOut = self { true } else { false }
    }

    /// Whether it is ``WebserviceError/Reason/notStored``.
    var isNotStored: Bool {
        if case .notStored = self { true } else { false }
    }

    /// Whether it is ``WebserviceError/Reason/credentialsRefused``.
    var isCredentialsRefused: Bool {
        if case .credentialsRefused = self { true } else { false }
    }

    /// Whether it is ``WebserviceError/Reason/alreadyIterated``.
    var isAlreadyIterated: Bool {
        if case .alreadyIterated = self { true } else { false }
    }
}
