import Foundation
internal import ResourceKitSupport

/// The receiver of a load whose body stays in memory (``Resource/receiver``): each attempt's body is read whole, within
/// the load's ``LoadContext/maxBodySize``, its progress reported as it arrives, before the response goes back through
/// the middleware, which then get it whole (``ResponseBody/data``).
///
/// A body that breaks off fails the attempt, which `RetryPolicy` may retry; one past the limit, by its
/// `Content-Length` or its bytes, is ``WebserviceError/Reason/bodyTooLarge(limit:)``, and its transfer stops.
public struct Collecting: Middleware {
    /// Creates the receiver.
    public init() {}

    /// Sends `request` and reads the body of the response whole.
    public func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        var response = try await next(request, context)
        let expected = response.announcedLength(to: request)
        var body = MemoryBody(
            maxBodySize: context.maxBodySize,
            counter: ProgressCounter(isUpload: false, expected: expected, receiver: context.progress))
        do {
            if let maxBodySize = context.maxBodySize, let expected, expected > Int64(maxBodySize) {
                throw WebserviceError(.bodyTooLarge(limit: maxBodySize))
            }
            let reader = response.body.reader()
            while let chunk = try await reader.next() { try body.append(chunk)?.report() }
        } catch let error as WebserviceError {
            throw error.counting(attempts: context.attempt)
        }
        // A transport may answer after the load was cancelled or timed out.
        try Task.checkCancellation()
        body.counter.end()?.report()
        response.body = ResponseBody(body.data)
        return response
    }
}

extension Response {
    /// The length of the bytes that arrive, as this response to `request` announces it: its `Content-Length`, unless
    /// it answers a `HEAD` (whose length counts the body a `GET` would have) or a `Content-Encoding` other than
    /// `identity` has the client inflate more bytes than it counts.
    public func announcedLength(to request: Request) -> Int64? {
        guard request.method != "HEAD", let length = contentLength else { return nil }
        // In an `HTTPURLResponse`, each lookup lowercases every name: the encoding is looked up only for a length.
        if let encoding = value(forHTTPHeaderField: "Content-Encoding"), asciiLowercased(encoding) != "identity" {
            return nil
        }
        return length
    }
}

/// A body gathered in memory, within the load's limit: it grows with the bytes that arrive, never from what
/// `Content-Length` claims.
private struct MemoryBody {
    var memory = GrowingData()
    var data: Data { memory.data }
    let maxBodySize: Int?
    var counter: ProgressCounter

    init(maxBodySize: Int?, counter: ProgressCounter) {
        self.maxBodySize = maxBodySize
        self.counter = counter
    }

    /// Takes the next chunk, a first `Data` as it is; returns the progress report that is due, if one is.
    mutating func append(_ chunk: ResponseBody.Chunk) throws -> DueProgress? {
        if let maxBodySize, counter.bytes + Int64(chunk.count) > Int64(maxBodySize) {
            throw WebserviceError(.bodyTooLarge(limit: maxBodySize))
        }
        if case .data(let first) = chunk, data.isEmpty {
            memory.data = first
        } else {
            chunk.withUnsafeBytes { memory.append($0, expected: counter.expected, limit: maxBodySize) }
        }
        return counter.add(chunk.count)
    }
}
