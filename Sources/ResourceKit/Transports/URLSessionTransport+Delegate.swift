import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
    import Synchronization
#endif

/// The session delegate that keeps only safe header fields on cross-origin redirects.
///
/// On Linux it also receives each load's response and body (tasks are created without a completion handler), which
/// FoundationNetworking then neither copies nor holds:
/// - The body goes into one buffer that grows with the bytes that arrive, and a body that passes the load's limit
///   ends the load at once; the rest that curl still delivers is dropped, not held.
/// - A 401 with a challenge, which FoundationNetworking holds until a credential arrives (forever, unless one is
///   stored), is delivered as it is once its body arrived.
/// - A redirect that keeps the method and the body (307, 308, or 301 and 302 for methods other than `POST`) ends
///   the task; ``URLSessionTransport`` sends the request with its body to the new location in a new task, as
///   FoundationNetworking would send it with an empty body.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// Header names, lowercased, that may reach another origin besides the built-in safe ones.
    let extraSafeHeaders: Set<String>

    init(extraSafeHeaders: Set<String>) {
        self.extraSafeHeaders = extraSafeHeaders
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Only to http and https: a server must not send the client to `file:` or another scheme.
        guard request.isHTTP else { return completionHandler(nil) }
        let redirected = request.redirected(from: task.originalRequest, extraSafeHeaders: extraSafeHeaders)
        #if canImport(FoundationNetworking)
            let sendsFile = update(task) { $0.transfer?.upload != nil } ?? false
            if sendsFile || task.originalRequest?.httpBody?.isEmpty == false,
                (redirected.httpMethod ?? "GET") == (task.currentRequest?.httpMethod ?? "GET")
            {
                var next = redirected
                next.httpBody = task.originalRequest?.httpBody
                _ = update(task) { $0.redirect = next }
                completionHandler(nil)  // The task ends with this response; `run` returns `next`.
                return
            }
        #endif
        completionHandler(redirected)
    }

    #if canImport(FoundationNetworking)
        /// Sends `request` through this delegate, and again to where a redirect that keeps the body leads; the body
        /// comes from `transfer`'s file and goes to its destination when it has them.
        func load(
            _ request: URLRequest,
            in session: URLSession,
            maxBodySize: Int?,
            transfer: Transfer?
        ) async throws -> (Data, URLResponse) {
            var request = request
            let uploadSize = try transfer?.uploadSize()
            let upload = transfer?.upload
            // FoundationNetworking follows at most 20 redirects in a task; so many of these are as many.
            for _ in 0...20 {
                let sending = uploadSize ?? request.httpBody.map { Int64($0.count) }
                let load = Load(maxBodySize: maxBodySize, transfer: transfer, uploadSize: sending)
                let outcome = try await run(load) { [request] in
                    if let upload {
                        session.uploadTask(with: request, fromFile: upload)
                    } else {
                        session.dataTask(with: request)
                    }
                }
                switch outcome {
                case .response(let body, let response, let file):
                    await transfer?.keep(file)
                    return (body, response)
                case .redirect(let next): request = next
                }
            }
            throw URLError(.httpTooManyRedirects)
        }

        /// What a task ends with: a response and its body (in memory, or a download's file), or a request to send
        /// next.
        enum Outcome: Sendable {
            case response(Data, URLResponse, ArrivedFile?)
            case redirect(URLRequest)
        }

        /// A load from its task's creation until `run` returns.
        private struct Load {
            var maxBodySize: Int?
            var transfer: Transfer?
            /// The `run` waiting for the outcome.
            var continuation: CheckedContinuation<Outcome, any Error>?
            var response: URLResponse?
            var body = ResponseBody()
            /// Counts the bytes of the request body sent, for `transfer`'s progress.
            var sent: ProgressCounter
            /// The request to send next instead of following the redirect, which would lose the body.
            var redirect: URLRequest?

            /// A load whose request body, if it has one, is `uploadSize` bytes.
            init(maxBodySize: Int?, transfer: Transfer?, uploadSize: Int64?) {
                self.maxBodySize = maxBodySize
                self.transfer = transfer
                sent = ProgressCounter(.upload, expected: uploadSize, receiver: transfer?.progress)
            }

            /// Takes `response` as the one whose body follows, and returns the upload's last progress report if it is
            /// due, so that it comes before the body's first; throws when its `Content-Length` is over the limit or its
            /// download's file can't be created.
            mutating func receive(_ response: URLResponse) throws -> DueProgress? {
                guard redirect == nil else { return nil }
                let sentAll = sent.end()
                // A retry after a 401 brings a new response: its body replaces the last one.
                body.abandon()
                self.response = response
                let length = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
                guard let transfer else {
                    body = try ResponseBody(status: nil, expectedLength: length, maxBodySize: maxBodySize, for: nil)
                    return sentAll
                }
                let http = response as? HTTPURLResponse
                // curl inflates a compressed body before it arrives here: its Content-Length isn't what arrives.
                let inflated = http?.value(forHTTPHeaderField: "Content-Encoding").map { $0 != "identity" } ?? false
                body = try ResponseBody(
                    status: http?.statusCode, expectedLength: inflated ? nil : length, maxBodySize: maxBodySize,
                    for: transfer)
                return sentAll
            }

            /// Appends `data` to the body; returns the progress report that is due, if one is.
            mutating func receive(_ data: Data) throws -> DueProgress? {
                guard redirect == nil else { return nil }
                return try body.append(data)
            }
        }

        /// The loads of tasks still running, by task identifier.
        private let loads = Mutex<[Int: Load]>([:])

        /// Where tasks are created, resumed and cancelled, and challenges answered.
        ///
        /// FoundationNetworking does each while holding the session's work queue, which curl's thread holds while it
        /// calls this delegate (``InlineQueue``), and for which no Swift concurrency thread may wait. Serial, so a task
        /// is cancelled only once it exists.
        private let tasks = DispatchQueue(label: "ResourceKit.URLSessionTransport.tasks")

        /// Where a load's task is, for cancelling it.
        private enum Start {
            case waiting
            case running(URLSessionDataTask)
            case cancelled
        }

        /// Runs the task `make` creates for `load` and returns how it ended; cancelling the calling task cancels it.
        private func run(_ load: Load, _ make: @escaping @Sendable () -> URLSessionDataTask) async throws -> Outcome {
            let start = Mutex(Start.waiting)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    var load = load
                    load.continuation = continuation
                    tasks.async { [self, load] in
                        let task = make()
                        let runs = start.withLock { start in
                            guard case .waiting = start else { return false }
                            start = .running(task)
                            return true
                        }
                        guard runs else {
                            task.cancel()
                            return continuation.resume(throwing: CancellationError())
                        }
                        loads.withLock { $0[task.taskIdentifier] = load }
                        task.resume()
                    }
                }
            } onCancel: {
                let running = start.withLock { start -> URLSessionDataTask? in
                    defer { start = .cancelled }
                    if case .running(let task) = start { return task } else { return nil }
                }
                if let running {
                    tasks.async { running.cancel() }
                }
            }
        }

        /// Runs `change` on the load of `task`, in place, unless it ended.
        private func update<Result>(_ task: URLSessionTask, _ change: (inout Load) -> Result?) -> Result? {
            loads.withLock { loads in
                guard let index = loads.index(forKey: task.taskIdentifier) else { return nil }
                return change(&loads.values[index])
            }
        }

        /// Ends the load of `task` with the outcome `end` makes of it, unless it already ended.
        ///
        /// The progress reports `end` adds to its second argument are made outside the lock, before `run` returns.
        private func finish(
            _ task: URLSessionTask,
            _ end: (inout Load, inout [DueProgress]) -> Result<Outcome, any Error>
        ) {
            let ended = loads.withLock {
                loads -> (CheckedContinuation<Outcome, any Error>?, Result<Outcome, any Error>, [DueProgress])? in
                guard var load = loads.removeValue(forKey: task.taskIdentifier) else { return nil }
                var reports: [DueProgress] = []
                let outcome = end(&load, &reports)
                if case .failure = outcome {
                    load.body.abandon()
                }
                return (load.continuation, outcome, reports)
            }
            guard let (continuation, outcome, reports) = ended else { return }
            for report in reports { report.report() }
            continuation?.resume(with: outcome)
        }

        /// Ends the load of `task` with `error`, such as ``WebserviceError/bodyTooLarge(limit:)``, and cancels `task`.
        private func refuse(_ task: URLSessionDataTask, with error: any Error) {
            finish(task) { _, _ in .failure(error) }
            // What curl still delivers before the cancellation takes effect finds no load, and is dropped.
            tasks.async { task.cancel() }
        }

        func urlSession(
            _ session: URLSession,
            dataTask: URLSessionDataTask,
            didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            completionHandler(.allow)  // Linux ignores the disposition.
            switch update(dataTask, { load in Result { try load.receive(response) } }) {
            case .success(let due): due?.report()
            case .failure(let error): refuse(dataTask, with: error)
            case nil: break
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            switch update(dataTask, { load in Result { try load.receive(data) } }) {
            case .success(let due): due?.report()
            case .failure(let error): refuse(dataTask, with: error)
            case nil: break
            }
        }

        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didSendBodyData bytesSent: Int64,
            totalBytesSent: Int64,
            totalBytesExpectedToSend: Int64
        ) {
            update(task) { $0.sent.add(Int(bytesSent)) }?.report()
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            finish(task) { load, reports in
                if let error { return .failure(error) }
                if let redirect = load.redirect { return .success(.redirect(redirect)) }
                guard let response = load.response ?? task.response else {
                    return .failure(URLError(.badServerResponse))
                }
                do {
                    let (body, due, file) = try load.body.finish()
                    reports += [load.sent.end(), due].compactMap { $0 }
                    return .success(.response(body, response, file))
                } catch {
                    return .failure(error)
                }
            }
        }

        /// Answers a 401's challenge by ending the load with the 401: FoundationNetworking asks only once the body
        /// arrived, and would otherwise wait for a credential forever.
        ///
        /// A credential stored for the protection space (`URLCredentialStorage`) is still tried once, for `Basic`,
        /// the one scheme FoundationNetworking can answer.
        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            // Answered on `tasks`: FoundationNetworking then waits for the session's work queue, which curl's thread
            // holds while it calls this.
            if challenge.proposedCredential != nil,
                challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodHTTPBasic
            {
                tasks.async { completionHandler(.performDefaultHandling, nil) }
                return
            }
            finish(task) { load, _ in
                guard let response = load.response ?? challenge.failureResponse ?? task.response else {
                    return .failure(URLError(.userAuthenticationRequired))
                }
                return Result {
                    let (body, _, file) = try load.body.finish()
                    return .response(body, response, file)
                }
            }
            tasks.async { completionHandler(.cancelAuthenticationChallenge, nil) }
        }
    #endif
}
