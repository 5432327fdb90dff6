import Foundation
import ResourceKit

/// The JSON body of the API's 4xx and 5xx responses, such as
/// `{"error":"not_found","reason":"No episode with id 99"}`.
///
/// Every SwiftTalk resource decodes it from unacceptable responses, so `load` throws
/// `WebserviceError.serverError` with it:
///
/// ```swift
/// catch WebserviceError.serverError(let body as APIErrorBody, let status, _, _) where body.error == "not_found" { … }
/// ```
public struct APIErrorBody: Error, Codable, Sendable, Equatable {
    /// A stable, machine-readable code, such as `not_found`, `unauthorized` or `invalid_body`.
    public var error: String
    /// A sentence for people.
    public var reason: String

    /// Creates an error body.
    ///
    /// - Parameters:
    ///   - error: A machine-readable code.
    ///   - reason: A sentence for people.
    public init(error: String, reason: String) {
        self.error = error
        self.reason = reason
    }
}
