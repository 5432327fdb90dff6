import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Resource {
    /// The model this resource makes of the fixture file at `url`, answered with `status` and `headers`: the whole
    /// path from response to model, status check and errors included, synchronously and without a network.
    ///
    /// ```swift
    /// let fixture = try #require(Bundle.module.url(forResource: "episodes", withExtension: "json"))
    /// #expect(try Episode.all.value(fromFixture: fixture).count == 3)
    /// ```
    ///
    /// - Parameters:
    ///   - url: The fixture file.
    ///   - status: The response's status code.
    ///   - headers: The response's header fields.
    /// - Returns: The model.
    /// - Throws: A `URLError` when the file can't be read or isn't a regular file (such as a FIFO, which is never
    ///   waited on), or the `WebserviceError` `Webservice.load(_:)` would throw.
    public func value(
        fromFixture url: URL,
        status: Int = 200,
        headers: [String: String] = ["Content-Type": "application/json"]
    ) throws -> A {
        // Opened as ResourceKit opens a file you name: without waiting, a regular file only.
        let body = try url.regularFileContents()
        guard
            let response = HTTPURLResponse(
                url: self.url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw URLError(.badServerResponse) }
        return try value(from: body, response: response)
    }
}
