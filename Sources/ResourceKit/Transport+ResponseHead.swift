import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response as it passes through ``Middleware``: the status code at once, the `URLResponse` only when something
/// reads it.
///
/// A parse made from `(Data) throws -> A`, such as every `Decodable` one, never reads the response. On Linux, building
/// an `HTTPURLResponse` from AsyncHTTPClient's header fields costs more than the rest of the library's work on a load
/// (FoundationNetworking capitalizes and compares each field name through `NSString`), so AsyncHTTPClient's transport
/// leaves it to ``response()``.
///
/// ```swift
/// let (body, head) = try await next(request)
/// if head.statusCode == 429, let wait = head.value(forHTTPHeaderField: "Retry-After") { … }
/// ```
public struct ResponseHead: Sendable {
    /// The HTTP status code, or `nil` for a response that is not HTTP.
    public let statusCode: Int?
    /// The attempts the load made to get this response, counted by ``RetryPolicy``.
    var attempts = 1
    /// The request this response answers as the transport got it, with the credentials middleware added: what an
    /// error's description must not show of it.
    var request: URLRequest?
    private let make: @Sendable () -> URLResponse

    /// The head of a response that is already built, such as one a stub returns.
    public init(_ response: URLResponse) {
        statusCode = (response as? HTTPURLResponse)?.statusCode
        make = { response }
    }

    /// The head of an HTTP response that `make` builds when it is read.
    init(statusCode: Int, make: @escaping @Sendable () -> URLResponse) {
        self.statusCode = statusCode
        self.make = make
    }

    /// The response, built now if it wasn't yet.
    public func response() -> URLResponse {
        make()
    }

    /// The value of the response's header field `name`, matched in any letter case; `nil` when it has none.
    public func value(forHTTPHeaderField name: String) -> String? {
        (response() as? HTTPURLResponse)?.value(forHTTPHeaderField: name)
    }
}

/// A ``Transport`` that ``Webservice`` sends through with ``head(for:maxBodySize:)``: AsyncHTTPClient's, which then
/// builds no `URLResponse` nobody reads, and ``URLSessionTransport``, which then adds no header field of its own.
protocol HeadTransport: Transport {
    /// Sends `request` like ``Transport/data(for:maxBodySize:)``, with no limit when `maxBodySize` is `nil`.
    func head(for request: URLRequest, maxBodySize: Int?) async throws -> (Data, ResponseHead)
}
