import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Resource {
    /// Validates a response and parses its body: everything ``Webservice/load(_:)`` does after the bytes arrive.
    ///
    /// A response is accepted when it is an `HTTPURLResponse` whose status code is in ``acceptableStatusCodes``
    /// (`2xx` by default); then the parse runs, with the response.
    ///
    /// It is synchronous, so a test can check the whole path from response to model, errors included, without a
    /// network:
    ///
    /// ```swift
    /// let response = HTTPURLResponse(url: url, statusCode: 404, httpVersion: nil, headerFields: nil)!
    /// #expect(throws: WebserviceError.self) { try Episode.all.value(from: body, response: response) }
    /// ```
    ///
    /// - Parameters:
    ///   - data: The response body.
    ///   - response: The response the transport returned with it.
    /// - Returns: The parsed model.
    /// - Throws: ``WebserviceError/nonHTTPResponse(body:)`` when `response` is not an `HTTPURLResponse`,
    ///   ``WebserviceError/serverError(_:statusCode:headers:body:)`` when its status code is not acceptable and
    ///   ``parseError`` turns the body into an error, ``WebserviceError/unacceptableStatus(statusCode:headers:body:)``
    ///   when it is not acceptable otherwise, and ``WebserviceError/parsing(_:statusCode:headers:body:)`` when the
    ///   parse throws.
    public func value(from data: Data, response: URLResponse) throws(WebserviceError) -> A {
        guard let http = response as? HTTPURLResponse else {
            throw .nonHTTPResponse(body: data)
        }
        guard acceptableStatusCodes.contains(http.statusCode) else {
            // The header fields are copied only on failure: the copy costs microseconds a success doesn't need.
            let headers = http.headerFields
            if let serverError = try? parseError?(data) {
                throw .serverError(serverError, statusCode: http.statusCode, headers: headers, body: data)
            }
            throw .unacceptableStatus(statusCode: http.statusCode, headers: headers, body: data)
        }
        do {
            return try parse(data, of: http)
        } catch {
            throw .parsing(error, statusCode: http.statusCode, headers: http.headerFields, body: data)
        }
    }
}

extension HTTPURLResponse {
    /// The response's header fields as strings.
    fileprivate var headerFields: [String: String] {
        var fields: [String: String] = [:]
        for case (let name as String, let value as String) in allHeaderFields {
            fields[name] = value
        }
        return fields
    }
}
