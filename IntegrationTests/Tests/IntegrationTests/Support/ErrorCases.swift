import Foundation
import ResourceKit

/// The associated values of each `WebserviceError` case the suite checks, or `nil` for another case: use them with
/// `#require`, as in `let response = try #require(error.unacceptableStatus)`.
extension WebserviceError {
    var encoding: (any Error)? { if case .encoding(let error) = reason { error } else { nil } }
    var unacceptableStatus: Response? { if case .unacceptableStatus(let response) = reason { response } else { nil } }
    var apiError: (any Error, Response)? {
        if case .apiError(let error, let response) = reason { (error, response) } else { nil }
    }
    var parsing: (any Error, Response)? {
        if case .parsing(let error, let response) = reason { (error, response) } else { nil }
    }
    var bodyTooLarge: Int? { if case .bodyTooLarge(let limit) = reason { limit } else { nil } }
    /// The transport's `URLError`, when the transport failed with one.
    var urlError: URLError? { if case .transport(let error as URLError) = reason { error } else { nil } }
    /// Whether the resource's own timeout passed first.
    var timedOut: Bool { if case .timedOut = reason { true } else { false } }
}
