import Foundation
import ResourceKit
import ResourceKitTesting
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport whose first request is answered `200` with `max-age=0, stale-while-revalidate=600`, and whose later
/// requests wait `delay` seconds (or until cancelled), then answer `304`.
final class StaleTransport: WholeTransport {
    let count = Mutex(0)
    let delay: TimeInterval
    init(delay: TimeInterval) { self.delay = delay }

    func answer(_ request: Request) async throws -> (Data, URLResponse) {
        let n = count.withLock {
            $0 += 1; return $0
        }
        let url = request.url
        if n == 1 {
            let head = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: [
                    "Cache-Control": "max-age=0, stale-while-revalidate=600", "ETag": "\"v1\"",
                    "Content-Type": "text/plain",
                ])!
            return (Data("hello".utf8), head)
        }
        try await Task.sleep(for: .seconds(delay))
        let head = HTTPURLResponse(
            url: url, statusCode: 304, httpVersion: "HTTP/1.1", headerFields: ["ETag": "\"v1\""])!
        return (Data(), head)
    }
}
