import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response as ``Webservice`` checks it: the status code at once, the `URLResponse` only when something reads it.
///
/// A parse made from `(Data) throws -> A`, such as every `Decodable` one, never reads the response. On Linux, building
/// an `HTTPURLResponse` from AsyncHTTPClient's header fields costs more than the rest of the library's work on a load
/// (FoundationNetworking capitalizes and compares each field name through `NSString`), so a ``HeadTransport`` leaves
/// it to ``response()``.
struct ResponseHead: Sendable {
    /// The HTTP status code, or `nil` for a response that is not HTTP.
    let statusCode: Int?
    private let make: @Sendable () -> URLResponse

    /// The head of a response that is already built.
    init(_ response: URLResponse) {
        statusCode = (response as? HTTPURLResponse)?.statusCode
        make = { response }
    }

    /// The head of an HTTP response that `make` builds when it is read.
    init(statusCode: Int, make: @escaping @Sendable () -> URLResponse) {
        self.statusCode = statusCode
        self.make = make
    }

    /// The response, built now if it wasn't yet.
    func response() -> URLResponse {
        make()
    }
}

/// A ``Transport`` that answers ``Webservice`` with a ``ResponseHead``, building no `URLResponse` nobody reads.
protocol HeadTransport: Transport {
    /// Sends `request` like ``Transport/data(for:maxBodySize:)``, with no limit when `maxBodySize` is `nil`.
    func head(for request: URLRequest, maxBodySize: Int?) async throws -> (Data, ResponseHead)
}
