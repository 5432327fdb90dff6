import Foundation
import ResourceKit
import SwiftTalk

/// A one-line account of a failed step: the API's error body for an unacceptable status, otherwise the error's own
/// description.
func describe(_ error: any Error) -> String {
    switch error {
    case let error as StepFailure:
        error.description
    case let error as WebserviceError:
        if case .apiError(let apiError as APIErrorBody, let response) = error.reason {
            "unexpected WebserviceError: \(response.statusCode) \(apiError.error) — \"\(apiError.reason)\""
        } else {
            "WebserviceError: \(error)"
        }
    default:
        "\(type(of: error)): \(error)"
    }
}
