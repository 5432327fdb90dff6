import Foundation
import ResourceKit  // not `@testable`: this file sees ResourceKit as a user's own transport does
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport written against ResourceKit's public API alone, over a `URLSession` of its own: `URLRequest(_:)` makes
/// the request it is given, a file body as a stream with its length, and the session's delegate hands the response's
/// body over as it arrives through a ``ResponseBody/Writer``, whose `write` never waits (on Linux, curl's thread
/// serves every session of the process).
///
/// On Linux its delegate runs on curl's thread (``InlineDelegateQueue``), so each chunk is written before curl reads
/// the next: with a delegate queue of its own, FoundationNetworking hands chunks over as fast as the network brings
/// them, and a gibibyte's chunks pile up in memory. The delegate never calls into the session on that thread: it
/// cancels a task on another.
///
/// With ``PublicTransport`` (over AsyncHTTPClient), it is the suite's proof of the transport contract:
/// ``TransportKind/publicSession`` runs the upload, download and stream tests through it.
struct PublicSessionTransport: Transport {
    /// The one the suite uses: a session lives as long as the process, as an app's would.
    static let shared = PublicSessionTransport()

    private let session: URLSession
    private let delegate: Delegate

    init() {
        delegate = Delegate()
        #if canImport(FoundationNetworking)
            let queue: OperationQueue? = InlineDelegateQueue()
        #else
            let queue: OperationQueue? = nil
        #endif
        session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: queue)
    }

    func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        let task = session.dataTask(with: try URLRequest(request))
        // A file goes chunked on Linux, so the session doesn't know its length: the request does.
        let length = try request.body?.length()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.start(task, length: length, progress: context.progress, answering: continuation)
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Hands each task's head over once it arrives, and its body's chunks to its writer.
    final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        /// A task's state: the load waiting for its head, then the writer of its body.
        private struct Task {
            var head: CheckedContinuation<(Response, ResponseBody), any Error>?
            var writer: ResponseBody.Writer?
            let length: Int64?
            let progress: (@Sendable (TransferProgress) -> Void)?
        }

        private let tasks = Mutex<[Int: Task]>([:])

        func start(
            _ task: URLSessionDataTask,
            length: Int64?,
            progress: (@Sendable (TransferProgress) -> Void)?,
            answering head: CheckedContinuation<(Response, ResponseBody), any Error>
        ) {
            tasks.withLock { $0[task.taskIdentifier] = Task(head: head, length: length, progress: progress) }
            task.resume()
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
            totalBytesExpectedToSend: Int64
        ) {
            let sent = tasks.withLock { $0[task.taskIdentifier] }
            let expected = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : sent?.length
            sent?.progress?(TransferProgress(isUpload: true, bytes: totalBytesSent, expectedBytes: expected))
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            // Cancelled on another thread: on Linux, `cancel` waits for the work queue that curl's thread holds here.
            let writer = ResponseBody.Writer { [dataTask] in DispatchQueue.global().async { dataTask.cancel() } }
            let head = tasks.withLock { tasks in
                tasks[dataTask.taskIdentifier]?.writer = writer
                defer { tasks[dataTask.taskIdentifier]?.head = nil }
                return tasks[dataTask.taskIdentifier]?.head
            }
            completionHandler(.allow)
            head?.resume(with: Result { (try Response(response), writer.body) })
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            tasks.withLock { $0[dataTask.taskIdentifier]?.writer }?.write(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let ended = tasks.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            if let head = ended?.head {
                head.resume(throwing: error ?? URLError(.badServerResponse))
            } else {
                ended?.writer?.finish(throwing: error)
            }
        }
    }
}

#if canImport(FoundationNetworking)
    /// A delegate queue that runs each call at once, on the thread that adds it: curl's, as FoundationNetworking
    /// delivers a response, a chunk or a task's end.
    ///
    /// `@unchecked`: a subclass restates `OperationQueue`'s own `Sendable`, and it has no state.
    final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }
    }
#endif
