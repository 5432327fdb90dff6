import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pipeline's timeout: runs the rest of the pipeline with a deadline (``LoadContext/timeRemaining``), failing with
/// `URLError(.timedOut)` once it passes.
///
/// The rest runs as `SharedWork` of its own, which is cancelled when the deadline passes. The load doesn't wait for it
/// to end, so the deadline holds even for a transport that ignores cancellation; its late answer is dropped, and a
/// place it holds under the limit is given back when it has really returned. A layer that has an answer of its own for
/// that moment, such as the cache's stored response (<doc:WorkingOffline>), runs the rest within the deadline itself.
enum Timeout {
    /// `send` for `request` and `context`, within `timeout` seconds.
    static func run(
        within timeout: TimeInterval,
        _ request: URLRequest,
        context: LoadContext,
        _ send: @escaping Middleware.Next
    ) async throws -> Response {
        var context = context
        let deadline = Uptime.now() + Uptime.nanoseconds(timeout)
        context.deadline = deadline
        do {
            return try await SharedWork<Int, Response>.value(before: deadline) { [context] in
                try await send(request, context)
            }
        } catch is SharedWork<Int, Response>.DeadlinePassed {
            throw WebserviceError(.timedOut(after: timeout))
        }
    }
}
