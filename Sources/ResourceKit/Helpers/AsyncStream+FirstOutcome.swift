/// The first outcome yielded to `outcomes`, or `CancellationError` as soon as the calling task is cancelled, whatever
/// the producer is still doing: how a load waits for work it mustn't be held up by.
///
/// - Parameters:
///   - outcomes: The stream the producer yields to.
///   - continuation: Its continuation, finished when the caller is cancelled.
/// - Returns: The value of the first outcome.
/// - Throws: The first outcome's error, or `CancellationError`.
func firstOutcome<Value: Sendable>(
    of outcomes: AsyncStream<Result<Value, any Error>>,
    _ continuation: AsyncStream<Result<Value, any Error>>.Continuation
) async throws -> Value {
    try await withTaskCancellationHandler {
        var first = outcomes.makeAsyncIterator()
        guard let outcome = await first.next() else { throw CancellationError() }
        return try outcome.get()
    } onCancel: {
        continuation.finish()
    }
}
