import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
    import Synchronization
#endif

/// The per-task delegate that stops a task whose body passes `maxBodySize`: for a caller's session, and for
/// ``URLSessionTransport``'s own on Apple platforms (on Linux, ``SessionDelegate`` stops it).
final class BodySizeLimiter: NSObject, URLSessionDataDelegate, Sendable {
    let maxBodySize: Int
    #if canImport(FoundationNetworking)
        /// The bytes received so far: Linux's `URLSessionTask` leaves `countOfBytesReceived` at zero.
        private let received = Mutex(0)
    #endif

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
        #if canImport(FoundationNetworking)
            let received = self.received.withLock { received in
                received += data.count
                return Int64(received)
            }
        #else
            let received = dataTask.countOfBytesReceived
        #endif
        if received > Int64(maxBodySize) {
            dataTask.cancel()
        }
    }
}
