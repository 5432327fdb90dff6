import Foundation
import ResourceKitCore
internal import ResourceKitSupport
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of ``URLSessionTransport``'s own session, on every platform: it receives each load's response and
/// body (tasks are created without a completion handler), and keeps only safe header fields on cross-origin redirects.
///
/// - The response's head is handed over as soon as it arrives, and each chunk of the body goes into its
///   ``ResponseBody/Writer`` on the delegate queue's thread (curl's, on Linux); a body the load refuses (over its limit, say)
///   cancels the task.
/// - A redirect that keeps the method and the body (307, 308, or 301 and 302 for methods other than `POST`) ends
///   the task; ``URLSessionTransport`` sends the request with its body to the new location in a new task, as
///   FoundationNetworking would send it with an empty body (the same on Apple platforms, so redirects go alike).
/// - On Linux, a 401 with a challenge, which FoundationNetworking holds until a credential arrives (forever, unless
///   one is stored), is delivered as it is once its body arrived. Apple platforms deliver it themselves.
/// - On Apple platforms, the trust policy answers each connection's challenges (`URLSessionTransport+Trust.swift`).
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// Header names, lowercased, that may reach another origin besides the built-in safe ones.
    let extraSafeHeaders: Set<String>
    /// The trust policies by host it applies to each connection's challenges, on Apple platforms.
    let trust: TrustHosts<CheckedTrust>?
    /// The servers the trust policy refused, for reporting why their tasks were cancelled.
    let refusals = TrustRefusals()

    init(extraSafeHeaders: Set<String>, trust: TrustHosts<CheckedTrust>? = nil) {
        self.extraSafeHeaders = extraSafeHeaders
        self.trust = trust
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        var request = request
        #if canImport(FoundationNetworking)
            // FoundationNetworking takes a relative `Location` such as `next` for a path from the root (`/next`): it is
            // resolved here against the URL that answered, as RFC 9110 says and AsyncHTTPClientTransport does.
            if let location = response.value(forHTTPHeaderField: "Location"), URL(string: location)?.scheme == nil,
                let answered = response.url, let target = URL(string: location, relativeTo: answered)?.absoluteURL,
                target.host != nil
            {
                request.url = target
            }
        #endif
        // Only to http and https: a server must not send the client to `file:` or another scheme.
        guard request.isHTTP else { return completionHandler(nil) }
        // Nor where the new host's trust policy refuses it: to a plain connection when it pins keys, which it would
        // have none to check, or anywhere when it trusts nothing.
        if let trust, let url = request.url, (try? trust.policy(for: url).check(url)) == nil {
            return completionHandler(nil)
        }
        // With a jar, it keeps the redirect's cookies; the caller's own `Cookie` follows the credential rule, and the
        // jar's for the target go after it.
        let (jar, callerCookie) = update(task) { load in (load.cookies, load.callerCookie) } ?? (nil, nil)
        var redirected = request
        if let jar {
            jar.store(Response(response, body: Data()))
            redirected.setValue(callerCookie, forHTTPHeaderField: "Cookie")
        }
        redirected = redirected.redirected(from: task.originalRequest, extraSafeHeaders: extraSafeHeaders)
        let kept = redirected.value(forHTTPHeaderField: "Cookie")
        var added: String?
        if let jar, let url = redirected.url {
            let field = jar.field(for: url, after: kept)
            added = field.added ? field.value : nil
            _ = update(task) { $0.callerCookie = kept }
            redirected.setValue(field.value, forHTTPHeaderField: "Cookie")
        }
        let sendsFile = update(task) { $0.sendsFile } ?? false
        if sendsFile || task.originalRequest?.httpBody?.isEmpty == false,
            (redirected.httpMethod ?? "GET") == (task.currentRequest?.httpMethod ?? "GET")
        {
            var next = redirected
            next.httpBody = task.originalRequest?.httpBody
            // `send` adds the jar's cookies to the new task's request.
            if jar != nil { next.setValue(kept, forHTTPHeaderField: "Cookie") }
            _ = update(task) { $0.redirect = next }
            completionHandler(nil)  // The task ends with this response; `run` returns `next`.
            return
        }
        if let added { _ = update(task) { $0.jarCookie = added } }
        completionHandler(redirected)
    }

    /// Sends `request` through this delegate, and returns the response's head as soon as it arrives.
    ///
    /// It sends again to where a redirect that keeps the body leads; the body comes from the file `upload` when there
    /// is one. The response's body is still arriving; for a stream, at most `backlog` bytes of it wait for the
    /// reader (``ResponseBody/Writer``). With `cookies`, each request carries the jar's cookies for its URL after its
    /// own `Cookie`, and the jar keeps each response's; the `Cookie` of the last hop the jar added cookies to comes
    /// with the response.
    func send(
        _ request: URLRequest,
        in session: URLSession,
        upload: URL?,
        maxBodySize: Int? = nil,
        backlog: Int? = nil,
        cookies: CookieJar? = nil,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> (
        Response, ResponseBody, jarCookie: String?
    ) {
        var request = request
        var jarCookie: String?
        let uploadSize = try upload?.regularFileSize()
        // FoundationNetworking follows at most 20 redirects in a task; so many of these are as many.
        for _ in 0...20 {
            let sending = uploadSize ?? request.httpBody.map { Int64($0.count) }
            var load = Load(
                sent: ProgressCounter(isUpload: true, expected: sending, receiver: progress),
                sendsFile: upload != nil)
            load.maxBodySize = maxBodySize
            load.backlog = backlog
            if let cookies, let url = request.url {
                load.cookies = cookies
                load.callerCookie = request.value(forHTTPHeaderField: "Cookie")
                let (field, added) = cookies.field(for: url, after: load.callerCookie)
                if added { jarCookie = field }
                request.setValue(field, forHTTPHeaderField: "Cookie")
            }
            let outcome: Outcome
            do {
                outcome = try await run(load) { [request] in
                    if let upload {
                        session.uploadTask(with: request, fromFile: upload)
                    } else {
                        session.dataTask(with: request)
                    }
                }
            } catch let error as URLError where error.code == .cancelled && !Task.isCancelled {
                // The trust policy cancels a connection to a server it refuses (Apple platforms): say why.
                throw request.url.flatMap(refusals.refusal(of:)) ?? error
            }
            switch outcome {
            case .head(let response, let writer, let added):
                let head = Response(response, body: Data())
                cookies?.store(head)
                return (head, writer.body, added ?? jarCookie)
            case .redirect(let next, let added):
                request = next
                jarCookie = added ?? jarCookie
            }
        }
        throw URLError(.httpTooManyRedirects)
    }

    /// What a task answers with: a response's head, its body arriving through its writer, or a request to send next;
    /// with the `Cookie` of the last redirect the task followed that the jar added cookies to.
    enum Outcome: Sendable {
        case head(HTTPURLResponse, ResponseBody.Writer, jarCookie: String?)
        case redirect(URLRequest, jarCookie: String?)
    }

    /// A load from its task's creation until the task ends.
    private struct Load {
        /// Counts the bytes of the request body sent, for the upload's progress.
        var sent: ProgressCounter
        /// Whether the request body is a file, which a redirect that keeps the method must send again.
        var sendsFile: Bool
        /// The `run` waiting for the head; `nil` once it has it.
        var continuation: CheckedContinuation<Outcome, any Error>?
        /// Where the body goes once the head was handed over.
        var writer: ResponseBody.Writer?
        /// A 401 with a challenge to come, and its body so far: handed over only when the challenge isn't answered
        /// with a stored credential, which brings a new response.
        var held: (response: HTTPURLResponse, body: [Data])?
        /// The request to send next instead of following the redirect, which would lose the body.
        var redirect: URLRequest?
        /// The load's body limit, for refusing at once a response whose `Content-Length` passes it: stopping the
        /// task later has to wait for curl's thread, busy delivering the body, to let go of the session.
        var maxBodySize: Int?
        /// For a stream, the bytes of its body that may wait for the reader.
        var backlog: Int?
        /// The jar whose cookies each hop carries and that keeps each response's; `nil` without one, or for a
        /// request that may carry no credentials.
        var cookies: CookieJar?
        /// The `Cookie` the caller set, until a redirect to another origin drops it; the jar's go after it.
        var callerCookie: String?
        /// The `Cookie` of the last redirect the task followed that the jar added cookies to.
        var jarCookie: String?

        init(sent: ProgressCounter, sendsFile: Bool) {
            self.sent = sent
            self.sendsFile = sendsFile
        }
    }

    /// The loads of tasks still running, by task identifier.
    private let loads = Mutex<[Int: Load]>([:])

    /// Where tasks are created, resumed and cancelled, and challenges answered.
    ///
    /// On Linux, FoundationNetworking does each while holding the session's work queue, which curl's thread holds
    /// while it calls this delegate (``InlineQueue``), and for which no Swift concurrency thread may wait. Serial,
    /// so a task is cancelled only once it exists.
    private let tasks = DispatchQueue(label: "ResourceKit.URLSessionTransport.tasks")

    /// Where a load's task is, for cancelling it.
    private enum Start {
        case waiting
        case running(URLSessionDataTask)
        case cancelled
    }

    /// Runs the task `make` creates for `load` and returns its head or redirect; cancelling the calling task before
    /// then cancels it.
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

    /// Hands `response` over as the head of `load`'s answer, with a writer for its body that already holds
    /// `early`; returns what resumes the waiting `run`, and the upload's last progress report if it is due, to run
    /// outside the lock, so that it comes before the body's first.
    private func handOver(
        _ response: HTTPURLResponse,
        of task: URLSessionTask,
        in load: inout Load,
        early: [Data] = []
    ) -> () -> Void {
        let writer = ResponseBody.Writer(backlog: load.backlog) { [tasks] in tasks.async { task.cancel() } }
        load.writer = writer
        let (continuation, due, jarCookie) = (load.continuation, load.sent.end(), load.jarCookie)
        load.continuation = nil
        return {
            // Outside the loads' lock (a stream's may go to disk), but before anyone can read and before this delegate
            // call returns, so before the next chunk.
            for data in early { writer.write(data) }
            due?.report()
            continuation?.resume(returning: .head(response, writer, jarCookie: jarCookie))
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(.allow)  // Linux ignores the disposition; the task is cancelled instead.
        let handed = update(dataTask) { load -> (() -> Void)? in
            // The response of a redirect sent again in a new task: its body, endless or not, is not read.
            if load.redirect != nil { return { [tasks] in tasks.async { dataTask.cancel() } } }
            guard load.continuation != nil else { return nil }
            guard let http = response as? HTTPURLResponse else {
                let continuation = load.continuation
                load.continuation = nil
                return { continuation?.resume(throwing: WebserviceError(.nonHTTPResponse(body: Data()))) }
            }
            if let limit = load.maxBodySize, http.expectedContentLength > Int64(limit),
                http.value(forHTTPHeaderField: "Content-Encoding") == nil
            {
                let continuation = load.continuation
                load.continuation = nil
                return { [tasks] in
                    tasks.async { dataTask.cancel() }
                    continuation?.resume(throwing: WebserviceError(.bodyTooLarge(limit: limit)))
                }
            }
            if http.statusCode == 401, http.value(forHTTPHeaderField: "WWW-Authenticate") != nil {
                load.held = (http, [])
                return nil
            }
            // A retry after a 401 with a stored credential brings a new response: it replaces the held one.
            load.held = nil
            return handOver(http, of: dataTask, in: &load)
        }
        handed?()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (writer, handed) =
            update(dataTask) { load -> (ResponseBody.Writer?, (() -> Void)?) in
                guard load.redirect == nil else { return (nil, nil) }
                guard let held = load.held else { return (load.writer, nil) }
                // A held 401's body is kept up to the most an error keeps; a longer one is handed over now, and
                // its challenge, if one comes, is refused.
                guard held.body.reduce(0, { $0 + $1.count }) + data.count > Transfer.errorBodyLimit else {
                    load.held?.body.append(data)
                    return (nil, nil)
                }
                load.held = nil
                let hand = handOver(held.response, of: dataTask, in: &load, early: held.body)
                return (load.writer, hand)
            } ?? (nil, nil)
        handed?()
        writer?.write(data)
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
        // A TLS or decoding failure that Linux reports as `URLError(.unknown)` gets the code Apple platforms use.
        let error = error.map(URLError.standardizing)
        guard var load = loads.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let writer = load.writer {
            return writer.finish(throwing: error)
        }
        if error == nil, let (response, body) = load.held {
            handOver(response, of: task, in: &load, early: body)()
            load.writer?.finish()
            return
        }
        // A redirect sent again in a new task ends this one, cancelled once its response arrived.
        let outcome: Result<Outcome, any Error> =
            if let redirect = load.redirect {
                .success(.redirect(redirect, jarCookie: load.jarCookie))
            } else if let error {
                .failure(error)
            } else { .failure(URLError(.badServerResponse)) }
        load.continuation?.resume(with: outcome)
    }

    #if canImport(FoundationNetworking)
        /// Answers a 401's challenge by ending the load with the 401: FoundationNetworking asks only once the body
        /// arrived, and would otherwise wait for a credential forever.
        ///
        /// A credential stored for the protection space (`URLCredentialStorage`) is still tried once, for `Basic`,
        /// the one scheme FoundationNetworking can answer. Linux only: Apple platforms ask before the response, and
        /// without this method deliver the 401 with its body when no stored credential answers it.
        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            // Answered on `tasks`: FoundationNetworking then waits for the session's work queue, which curl's thread
            // holds while it calls this.
            let handedOver = update(task) { $0.writer != nil } ?? false
            if !handedOver, challenge.proposedCredential != nil,
                challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodHTTPBasic
            {
                tasks.async { completionHandler(.performDefaultHandling, nil) }
                return
            }
            if var load = loads.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) {
                if let writer = load.writer {
                    writer.finish()
                } else if let response = load.held?.response ?? (challenge.failureResponse as? HTTPURLResponse) {
                    handOver(response, of: task, in: &load, early: load.held?.body ?? [])()
                    load.writer?.finish()
                } else {
                    load.continuation?.resume(throwing: URLError(.userAuthenticationRequired))
                }
            }
            tasks.async { completionHandler(.cancelAuthenticationChallenge, nil) }
        }
    #endif
}
