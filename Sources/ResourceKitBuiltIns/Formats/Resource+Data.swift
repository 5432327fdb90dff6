import Foundation
import ResourceKitCore
internal import ResourceKitSupport

extension Resource where A == Data {
    /// Creates a resource whose model is the response body itself, byte for byte.
    ///
    /// ```swift
    /// let archive = Resource<Data>(url: archiveURL)
    /// ```
    public init(url: URL, method: HTTPMethod<Data> = .get, headers: [String: String] = [:]) {
        self.init(url: url, method: method, headers: headers, parse: { data in data })
    }
}
