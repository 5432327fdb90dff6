import Foundation
import ResourceKitCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Resource {
    /// This resource, loading its model together with the response's head: its status code, header fields and URL.
    ///
    /// Everything else stays as the resource's initializer made it: its `Accept` field, its decoder, the coding path
    /// in its errors, its API error model. Test it with ``value(from:response:)`` and a response; ``parse(_:)``,
    /// which has none, throws. See <doc:LoadingResources#The-response-with-the-value>.
    ///
    /// ```swift
    /// let (episodes, response) = try await webservice.load(Episode.all.withResponse)
    /// let remaining = response.value(forHTTPHeaderField: "X-RateLimit-Remaining")
    /// ```
    public var withResponse: Resource<(value: A, response: Response)> {
        map(withResponse: { value, response in
            guard let response else { throw NoResponse() }
            return (value, Response(response, body: Data()))
        })
    }
}

/// Thrown by the parse of a resource ``Resource/withResponse`` made when it is called without a response.
private struct NoResponse: Error, CustomStringConvertible {
    var description: String {
        "This resource's model includes its response: test its parse with value(from:response:) and a response."
    }
}
