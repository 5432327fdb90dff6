import Foundation

extension Resource {
    /// Returns this resource with ``parseError`` set to decode the API's own error model from unacceptable
    /// responses.
    ///
    /// ```swift
    /// struct APIError: Error, Decodable {
    ///     var error: String
    ///     var reason: String
    /// }
    ///
    /// do {
    ///     _ = try await webservice.load(Episode.all.decodingErrors(as: APIError.self))
    /// } catch let error as WebserviceError {
    ///     if let apiError = error.underlyingError as? APIError, error.statusCode == 404 { print(apiError.reason) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The API's error type.
    ///   - decoder: The decoder for error bodies. Defaults to a plain `JSONDecoder`.
    /// - Returns: The same resource, whose unacceptable responses throw
    ///   ``WebserviceError/serverError(_:statusCode:headers:body:)`` with an `E` when their body decodes as one.
    public func decodingErrors<E: Error & Decodable>(as type: E.Type, decoder: JSONDecoder = JSONDecoder()) -> Self {
        var resource = self
        resource.parseError = { data in try decoder.decode(E.self, from: data) }
        return resource
    }
}
