import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that adds header fields of its own to the requests it sends, such as a configuration's
/// `httpAdditionalHeaders`.
///
/// ``Webservice/load(_:)`` sends the prepared request and looks it up in its ``ResponseCache``, so the fields the
/// transport adds, configured credentials among them, are part of the cache's key.
protocol PreparesRequests {
    /// The request as this transport sends it: with the header fields it adds.
    ///
    /// - Parameter request: The request as the resource describes it.
    /// - Returns: `request` with the transport's own header fields that it doesn't set itself.
    func prepared(_ request: URLRequest) -> URLRequest
}

extension RedirectSafeSession: PreparesRequests {}

extension URLSession: PreparesRequests {
    /// `request` with the configuration's `httpAdditionalHeaders` that it doesn't set itself, as the session sends
    /// it.
    func prepared(_ request: URLRequest) -> URLRequest {
        var request = request
        for case (let name as String, let value) in configuration.httpAdditionalHeaders ?? [:]
        where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value as? String ?? String(describing: value), forHTTPHeaderField: name)
        }
        return request
    }
}
