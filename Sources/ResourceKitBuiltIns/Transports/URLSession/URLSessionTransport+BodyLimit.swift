import Foundation
import ResourceKitCore
internal import ResourceKitSupport
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The per-task delegate that stops a task whose body passes `maxBodySize`, for a caller's session
/// (``SessionDelegate`` stops one of ``URLSessionTransport``'s own).
final class BodySizeLimiter: NSObject, URLSessionDataDelegate, Sendable {
    let maxBodySize: Int
    /// The bytes received so far, counted here: Linux's `URLSessionTask` leaves `countOfBytesReceived` at zero.
    private let received = Mutex(0)

    init(maxBodySize: Int) {
        self.maxBodySize = maxBodySize
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard response.expectedContentLength <= Int64(maxBodySize) else {
            // Linux ignores the `.cancel` disposition; cancelling the task works everywhere.
            dataTask.cancel()
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let received = self.received.withLock { received in
            received += data.count
            return received
        }
        if received > maxBodySize {
            dataTask.cancel()
        }
    }
}
