import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Webservice {
    /// Loads a stream: sends its request, validates the response's head, and returns its elements as they arrive.
    ///
    /// It returns once the head has arrived, through the middleware (retries, credentials) and within the request's
    /// timeout; each element is framed and parsed as its bytes arrive, when the loop asks for it, so a slow loop holds
    /// the server back. Cancelling the loop's task closes the connection. See <doc:StreamingResponses>.
    ///
    /// ```swift
    /// for try await delta in try await webservice.load(Chat.completions(for: prompt)) {
    ///     print(delta.text, terminator: "")
    /// }
    /// ```
    @concurrent
    public func load<Element>(
        _ stream: StreamingResource<Element>
    ) async throws -> some AsyncSequence<Element, any Error> & Sendable {
        let (request, head) = try await exchange(stream.request, streams: true)
        let body = head.stream ?? ResponseBody(head.body)
        guard stream.request.acceptableStatusCodes.contains(head.statusCode) else {
            // The error keeps the body up to the limit of an element; the rest is not read.
            var response = head
            do {
                let reader = body.reader()
                while response.body.count < stream.elementLimit, let chunk = try await reader.next() {
                    chunk.withUnsafeBytes { response.body.append(contentsOf: $0.prefix(stream.elementLimit - response.body.count)) }
                }
            } catch {
                throw Sending.reported(error, of: request)
            }
            let error: WebserviceError
            do {
                _ = try stream.request.value(from: response)
                error = WebserviceError(.unacceptableStatus(response))
            } catch let caught {
                error = caught
            }
            throw error.failing(request)
        }
        return StreamElements(stream: stream, body: body, head: head, request: request)
    }
}

/// The elements of a stream's body, framed and parsed as its chunks arrive; it can be iterated once.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct StreamElements<Element>: AsyncSequence, Sendable {
    let stream: StreamingResource<Element>
    /// The response's head, for the errors.
    let head: Response
    let request: URLRequest
    /// The body, until the first iterator takes it: the iterator alone holds it, so the transfer stops once the loop
    /// that iterates it ends.
    private let body: Body

    private final class Body: Sendable {
        let untaken: Mutex<ResponseBody?>

        init(_ body: ResponseBody) {
            untaken = Mutex(body)
        }
    }

    init(stream: StreamingResource<Element>, body: ResponseBody, head: Response, request: URLRequest) {
        self.stream = stream
        self.body = Body(body)
        self.head = head
        self.request = request
    }

    func makeAsyncIterator() -> Iterator {
        let body = body.untaken.withLock { untaken in
            defer { untaken = nil }
            return untaken
        }
        return Iterator(elements: self, reader: body?.reader())
    }

    struct Iterator: AsyncIteratorProtocol {
        let elements: StreamElements
        /// The body's chunks; `nil` once the stream ended, or for a second iterator.
        var reader: ChunkReader?
        var framer: Framer
        /// The elements returned so far.
        var count = 0
        /// Whether the body has no more chunks.
        var bodyEnded = false

        init(elements: StreamElements, reader: ChunkReader?) {
            self.elements = elements
            self.framer = Framer(elements.stream.framing, limit: elements.stream.elementLimit)
            if let reader {
                self.reader = reader
            } else {
                self.reader = ChunkReader {
                    throw WebserviceError(.transport(URLError(.resourceUnavailable, userInfo: [
                        NSLocalizedDescriptionKey: "A stream's elements can be iterated once; this stream was already."
                    ])))
                }
            }
        }

        mutating func next() async throws -> Element? {
            guard let reader else { return nil }
            do {
                while true {
                    if let unit = try framer.next() { return try element(unit) }
                    if bodyEnded {
                        self.reader = nil
                        guard let unit = try framer.end() else { return nil }
                        return try element(unit)
                    }
                    try Task.checkCancellation()
                    if let chunk = try await reader.next() {
                        chunk.withUnsafeBytes { framer.append($0) }
                    } else {
                        // A sequence may end when its task is cancelled: that is no end of the body.
                        try Task.checkCancellation()
                        bodyEnded = true
                    }
                }
            } catch {
                self.reader = nil
                throw failure(error)
            }
        }

        /// The element `unit` parses to, counted.
        private mutating func element(_ unit: Framer.Unit) throws -> Element {
            defer { count += 1 }
            return try elements.stream.element(unit, at: count)
        }

        /// `error` as the loop gets it: a parse's or the framing's as ``WebserviceError/Reason/parsing(_:_:)`` of the
        /// response, a transport's redacted.
        private func failure(_ error: any Error) -> any Error {
            switch error {
            case is ElementFailure:
                WebserviceError(.parsing(error, elements.head)).failing(elements.request)
            case let framing as FramingError:
                WebserviceError(.parsing(ElementFailure(index: count, error: framing, codingPath: []), elements.head))
                    .failing(elements.request)
            default:
                Sending.reported(error, of: elements.request)
            }
        }
    }
}
