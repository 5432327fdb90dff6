import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Creates the request that loads `resource`: its URL, method name, header fields, body bytes and timeout.
    ///
    /// It is synchronous and does no I/O, so tests can check exactly what goes on the wire:
    ///
    /// ```swift
    /// let request = URLRequest(resource: try Resource<Episode>(url: url, method: .post(newEpisode)))
    /// #expect(request.httpMethod == "POST")
    /// #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    /// ```
    ///
    /// - Parameter resource: The resource to request.
    public init<A>(resource: Resource<A>) {
        self.init(url: resource.url)
        httpMethod = resource.method.name
        httpBody = resource.method.body
        if let timeout = resource.timeout, timeout > 0, timeout < timeoutInterval {
            timeoutInterval = timeout
        }
        for (name, value) in resource.headers {
            setValue(value, forHTTPHeaderField: name)
        }
    }
}
