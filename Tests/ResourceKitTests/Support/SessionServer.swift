import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server inside `URLSession`, registered through `URLSessionConfiguration.protocolClasses`: it sees each request
/// as the session hands it over, header fields the session set (such as cookies) included, with no network.
///
/// It answers every request `200` with the URL's path as the body and, when the query has a `next` item, a
/// `Link: <next>; rel="next"` header field. Give each test paths of its own, and read ``requests(under:)``.
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.protocolClasses = [SessionServer.self]
/// ```
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class SessionServer: URLProtocol {
    private static let log = Mutex<[URLRequest]>([])

    /// The requests whose path starts with `prefix`, in the order they arrived.
    static func requests(under prefix: String) -> [URLRequest] {
        log.withLock { $0.filter { $0.url?.path.hasPrefix(prefix) == true } }
    }

    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        Self.log.withLock { $0.append(request) }
        guard let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: Self.next(of: url).map { ["Link": "<\($0)>; rel=\"next\""] } ?? [:])
        else { return }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data(url.path.utf8))
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}

    /// The value of `url`'s `next` query item.
    private static func next(of url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems?.first { $0.name == "next" }?.value
    }
}
