import Foundation
import ResourceKitCore
internal import ResourceKitSupport

extension Resource {
    /// Returns this resource with ``parseAPIError`` set to decode the API's own JSON error model from unacceptable
    /// responses, which then throw ``WebserviceError/Reason/apiError(_:_:)``.
    ///
    /// ```swift
    /// struct APIError: Error, Decodable { var reason: String }
    ///
    /// do {
    ///     _ = try await webservice.load(Episode.all.decodingAPIErrors(as: APIError.self))
    /// } catch let error as WebserviceError {
    ///     if case .apiError(let apiError as APIError, let response) = error.reason {
    ///         print(response.statusCode, apiError.reason)
    ///     }
    /// }
    /// ```
    public func decodingAPIErrors<E: Error & Decodable>(as type: E.Type, decoder: JSONDecoder = JSONDecoder()) -> Self {
        var resource = self
        resource.parseAPIError = { data in try decoder.decode(E.self, from: data) }
        return resource
    }
}
