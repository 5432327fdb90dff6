import Foundation
import ResourceKitCore
internal import ResourceKitSupport
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
        let (request, head, body) = try await connect(stream, with: stream.request)
        return StreamElements(stream: stream, webservice: self, body: body, head: head, request: request)
    }

    /// Sends `resource`, the request of `stream`, and returns the response's head and its body once the head is
    /// acceptable; otherwise throws, with the body up to the limit of an element or 1 MiB.
    fileprivate func connect<Element>(
        _ stream: StreamingResource<Element>,
        with resource: Resource<Void>
    ) async throws -> (Request, Response, ResponseBody) {
        // The stream's loop reads the body as it arrives: no receiver reads it first, and its limit is on each element,
        // which the loop checks.
        var resource = resource
        resource.receiver = nil
        resource.maxBodySize = nil
        // The request as it is sent, to name in errors: relative to the base URL, resolved (a URL that can't be is
        // thrown by `response(for:)`).
        let request = Request(resource: (try? resolved(resource)) ?? resource)
        var head = try await response(for: resource)
        // Only the reader holds the body, so that the transfer stops once it is dropped: not the head, which errors
        // keep.
        let body = head.body
        head.body = ResponseBody(Data())
        guard resource.acceptableStatusCodes.contains(head.statusCode) else {
            var response = head
            let keeps = Swift.min(stream.elementLimit, Transfer.errorBodyLimit)
            var kept = Data()
            do {
                let reader = body.reader()
                while kept.count < keeps, let chunk = try await reader.next() {
                    chunk.withUnsafeBytes { kept.append(contentsOf: $0.prefix(keeps - kept.count)) }
                }
            } catch {
                // Redacted against the request as sent already (`Sending`).
                throw Self.reported(error, of: request)
            }
            response.body = ResponseBody(kept)
            let error: WebserviceError
            do {
                _ = try resource.value(from: response)
                error = WebserviceError(.unacceptableStatus(response))
            } catch let caught {
                error = caught
            }
            throw Self.reported(error, of: request)
        }
        return (request, head, body)
    }
}

/// The elements of a stream's body, framed and parsed as its chunks arrive; it can be iterated once.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct StreamElements<Element>: AsyncSequence, Sendable {
    let stream: StreamingResource<Element>
    /// The web service that loaded it, for connecting again.
    let webservice: Webservice
    /// The response's head, for the errors.
    let head: Response
    let request: Request
    /// The body, until the first iterator takes it: the iterator alone holds it, so the transfer stops once the loop
    /// that iterates it ends.
    private let body: Body

    private final class Body: Sendable {
        let untaken: Mutex<ResponseBody?>

        init(_ body: ResponseBody) {
            untaken = Mutex(body)
        }
    }

    init(
        stream: StreamingResource<Element>,
        webservice: Webservice,
        body: ResponseBody,
        head: Response,
        request: Request
    ) {
        self.stream = stream
        self.webservice = webservice
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
        var reader: ResponseBody.Reader?
        var framer: Framer
        /// The elements returned so far.
        var count = 0
        /// The bytes of the body handed over so far, over every connection.
        var bytes = 0
        /// Whether the body has no more chunks.
        var bodyEnded = false
        /// The reconnections since the last element.
        var reconnections = 0
        /// Whether the stream may connect again: a stream of events sent with `GET`, read by its first iterator.
        let reconnects: Bool
        /// The head of the response being read, for the errors.
        var head: Response
        var request: Request

        init(elements: StreamElements, reader: ResponseBody.Reader?) {
            self.elements = elements
            self.framer = Framer(elements.stream.framing, limit: elements.stream.elementLimit)
            self.head = elements.head
            self.request = elements.request
            self.reconnects =
                reader != nil && elements.stream.framing == .events && elements.stream.request.method == .get
            if let reader {
                self.reader = reader
            } else {
                self.reader = ResponseBody.Reader { throw WebserviceError(.alreadyIterated) }
            }
        }

        mutating func next() async throws -> Element? {
            guard reader != nil else { return nil }
            do {
                while true {
                    if let unit = try framer.next() { return try element(unit) }
                    if bodyEnded {
                        self.reader = nil
                        guard let unit = try framer.end() else { return nil }
                        return try element(unit)
                    }
                    try Task.checkCancellation()
                    let chunk: ResponseBody.Chunk?
                    do {
                        chunk = try await self.reader?.next()
                    } catch {
                        guard !Task.isCancelled, Self.isBreak(error), try await reconnected() else { throw error }
                        continue
                    }
                    if let chunk {
                        chunk.withUnsafeBytes {
                            bytes += $0.count
                            framer.append($0)
                        }
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
            reconnections = 0
            return try elements.stream.element(unit, at: count)
        }

        /// Whether `error`, from the body's reader, is the transport's for a connection that broke or went idle,
        /// after which a stream of events connects again, whatever the transport calls it (Linux's `URLSession` says
        /// `.unknown` for a TLS read cut short, AsyncHTTPClient may throw its own error): not one of the stream's
        /// limits, nor a body the transport couldn't decode or parse, which would fail again.
        private static func isBreak(_ error: any Error) -> Bool {
            guard let error = error as? WebserviceError, case .transport(let underlying) = error.reason else {
                return false
            }
            switch (underlying as? URLError)?.code {
            case .dataLengthExceedsMaximum, .cannotDecodeContentData, .cannotDecodeRawData, .badServerResponse,
                .cannotParseResponse, .cancelled:
                return false
            default:
                return true
            }
        }

        /// Connects a stream of events again after its connection broke, if it may.
        ///
        /// It waits the server's `retry` time (at least 0.1 s, at most 60 s) and sends the ID of the last whole event,
        /// from which a new framer goes on; an event that was still arriving comes again whole. A connection that fails before its
        /// response counts as a try.
        private mutating func reconnected() async throws -> Bool {
            guard reconnects else { return false }
            reader = nil
            while reconnections < elements.stream.maxReconnections {
                reconnections += 1
                try await elements.stream.sleep(
                    Double(Swift.min(Swift.max(framer.retry ?? 3_000, 100), 60_000)) / 1_000)
                var resource = elements.stream.request
                if let id = framer.lastEventID {
                    // In place of the caller's field, in any letter case; an empty ID resets it: no field.
                    resource.headers = resource.headers.filter { asciiLowercased($0.key) != "last-event-id" }
                    if !id.isEmpty { resource.headers["Last-Event-ID"] = id }
                }
                let connection: (Request, Response, ResponseBody)
                do {
                    connection = try await elements.webservice.connect(elements.stream, with: resource)
                } catch let error as WebserviceError where error.isTransportFailure {
                    continue
                }
                let body: ResponseBody
                (request, head, body) = connection
                reader = body.reader()
                framer = Framer(
                    .events, limit: elements.stream.elementLimit, lastEventID: framer.lastEventID, retry: framer.retry)
                return true
            }
            return false
        }

        /// `error` as the loop gets it: a parse's or the framing's as ``WebserviceError/Reason/parsing(_:_:)`` of the
        /// response, a transport's redacted.
        private func failure(_ error: any Error) -> any Error {
            switch error {
            case is DecodingError:
                Webservice.reported(WebserviceError(.parsing(error, head)), of: request)
            case let framing as FramingError:
                Webservice.reported(
                    WebserviceError(.parsing(DecodingError(index: count, error: framing, codingPath: []), head)),
                    of: request)
            case let error as WebserviceError:
                // A transport's error as the body arrives, redacted against the request as sent already (`Sending`).
                if case .transport(let underlying) = error.reason {
                    Webservice.reported(
                        WebserviceError(.interrupted(underlying, head, elements: count, bytes: bytes)), of: request)
                } else {
                    Webservice.reported(error, of: request)
                }
            default:
                Webservice.reported(error, of: request)
            }
        }
    }
}
