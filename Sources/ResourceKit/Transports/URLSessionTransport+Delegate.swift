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
            if let body = task.originalRequest?.httpBody, !body.isEmpty,
                (redirected.httpMethod ?? "GET") == (task.currentRequest?.httpMethod ?? "GET")
            {
                var next = redirected
                next.httpBody = body
                _ = update(task) { $0.redirect = next }
                completionHandler(nil)  // The task ends with this response; `run` returns `next`.
                return
            }
        #endif
        completionHandler(redirected)
    }

    #if canImport(FoundationNetworking)
        /// Sends `request` through this delegate, and again to where a redirect that keeps the body leads.
        func load(_ request: URLRequest, in session: URLSession, maxBodySize: Int?) async throws -> (Data, URLResponse)
        {
            var request = request
            // FoundationNetworking follows at most 20 redirects in a task; so many of these are as many.
            for _ in 0...20 {
                switch try await run(session.dataTask(with: request), maxBodySize: maxBodySize) {
                case .response(let body, let response): return (body, response)
                case .redirect(let next): request = next
                }
            }
            throw URLError(.httpTooManyRedirects)
        }

        /// What a task ends with: a response and its body, or a request to send next.
        enum Outcome: Sendable {
            case response(Data, URLResponse)
            case redirect(URLRequest)
        }

        /// A load from its task's creation until `run` returns.
        private struct Load {
            var maxBodySize: Int?
            /// The `run` waiting for the outcome.
            var continuation: CheckedContinuation<Outcome, any Error>?
            /// The outcome, when the task ended before `run` started waiting for it.
            var outcome: Result<Outcome, any Error>?
            var response: URLResponse?
            var body = Data()
            /// The request to send next instead of following the redirect, which would lose the body.
            var redirect: URLRequest?

            init(maxBodySize: Int?) {
                self.maxBodySize = maxBodySize
            }

            /// A load that ended with `outcome` before its `run` waited.
            init(outcome: Result<Outcome, any Error>) {
                self.outcome = outcome
            }

            var hasEnded: Bool {
                if case .some = outcome { true } else { false }
            }

            /// Takes `response` as the one whose body follows; returns the limit when its `Content-Length` is over it.
            mutating func receive(_ response: URLResponse) -> Int? {
                guard redirect == nil else { return nil }
                let expected = response.expectedContentLength
                if let maxBodySize, expected > Int64(maxBodySize) { return maxBodySize }
                // A retry after a 401 brings a new response: its body replaces the last one.
                self.response = response
                body = Data()  // grown with the bytes that arrive, never from what Content-Length claims
                return nil
            }

            /// Appends `data` to the body; returns the limit instead when the body would pass it.
            mutating func receive(_ data: Data) -> Int? {
                guard redirect == nil else { return nil }
                if let maxBodySize, body.count + data.count > maxBodySize { return maxBodySize }
                body.append(data)
                return nil
            }
        }

        /// The loads of tasks still running, by task identifier.
        private let loads = Mutex<[Int: Load]>([:])

        /// Runs `task` and returns how it ended; cancelling the calling task cancels `task`.
        private func run(_ task: URLSessionDataTask, maxBodySize: Int?) async throws -> Outcome {
            let id = task.taskIdentifier
            loads.withLock { $0[id] = Load(maxBodySize: maxBodySize) }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let outcome = loads.withLock { loads -> Result<Outcome, any Error>? in
                        if let outcome = loads[id]?.outcome {
                            loads[id] = nil
                            return outcome
                        }
                        loads[id]?.continuation = continuation
                        return nil
                    }
                    if let outcome {
                        continuation.resume(with: outcome)
                    } else {
                        task.resume()
                    }
                }
            } onCancel: {
                task.cancel()
            }
        }

        /// Runs `change` on the load of `task`, in place, unless it ended.
        private func update<Result>(_ task: URLSessionTask, _ change: (inout Load) -> Result?) -> Result? {
            loads.withLock { loads in
                guard let index = loads.index(forKey: task.taskIdentifier), !loads.values[index].hasEnded else {
                    return nil
                }
                return change(&loads.values[index])
            }
        }

        /// Ends the load of `task` with the outcome `end` makes of it, unless it already ended.
        private func finish(_ task: URLSessionTask, _ end: (inout Load) -> Result<Outcome, any Error>) {
            let ended = loads.withLock {
                loads -> (CheckedContinuation<Outcome, any Error>, Result<Outcome, any Error>)? in
                guard let index = loads.index(forKey: task.taskIdentifier), !loads.values[index].hasEnded else {
                    return nil
                }
                var load = loads.remove(at: index).value
                let outcome = end(&load)
                guard let continuation = load.continuation else {
                    loads[task.taskIdentifier] = Load(outcome: outcome)
                    return nil
                }
                return (continuation, outcome)
            }
            if let (continuation, outcome) = ended {
                continuation.resume(with: outcome)
            }
        }

        /// Ends the load of `task` with ``WebserviceError/bodyTooLarge(limit:)`` and cancels `task`.
        private func refuse(_ task: URLSessionDataTask, limit: Int) {
            finish(task) { _ in .failure(WebserviceError.bodyTooLarge(limit: limit)) }
            // `cancel` waits for the session's work queue, which curl may keep busy for a while; meanwhile this
            // queue drops what curl already delivered.
            DispatchQueue.global().async { task.cancel() }
        }

        func urlSession(
            _ session: URLSession,
            dataTask: URLSessionDataTask,
            didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            completionHandler(.allow)  // Linux ignores the disposition.
            if let limit = update(dataTask, { $0.receive(response) }) {
                refuse(dataTask, limit: limit)
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            if let limit = update(dataTask, { $0.receive(data) }) {
                refuse(dataTask, limit: limit)
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            finish(task) { load in
                if let error { return .failure(error) }
                if let redirect = load.redirect { return .success(.redirect(redirect)) }
                guard let response = load.response ?? task.response else {
                    return .failure(URLError(.badServerResponse))
                }
                return .success(.response(load.body, response))
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
            if challenge.proposedCredential != nil,
                challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodHTTPBasic
            {
                completionHandler(.performDefaultHandling, nil)
                return
            }
            finish(task) { load in
                guard let response = load.response ?? challenge.failureResponse ?? task.response else {
                    return .failure(URLError(.userAuthenticationRequired))
                }
                return .success(.response(load.body, response))
            }
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    #endif
}
