// The parser of mattt/EventSource 1.1.1 (https://github.com/mattt/EventSource, commit 38ecb45, Apache License 2.0,
// see LICENSE in this directory), the baseline of the server-sent events rows of `--only streams`.
//
// Changed from the original: the `EventSource` actor's connection (its `URLSession`, callbacks, `open`, `close` and
// `connect`) is left out, as `URLSession.bytes(for:delegate:)` doesn't exist in FoundationNetworking, so version
// 1.1.1 doesn't build on Linux. The error type, `ReadyState`, `Event`, `Parser` and the other two files are as
// published.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Errors that can occur when using `EventSource`.
public enum EventSourceError: Swift.Error, LocalizedError {
    /// The HTTP response status code is not 200.
    case invalidHTTPStatus(Int)

    /// The Content-Type header is not `text/event-stream`.
    case invalidContentType(String?)

    public var errorDescription: String {
        switch self {
        case .invalidHTTPStatus(let code):
            return "Invalid HTTP response status code: \(code)"
        case .invalidContentType(let contentType):
            if let ct = contentType {
                return "Invalid Content-Type for SSE: \(ct)"
            } else {
                return "Missing Content-Type header in SSE response"
            }
        }
    }
}

/// `EventSource` manages a Server-Sent Events (SSE) connection.
///
/// This implementation mirrors the API of JavaScript's EventSource
/// (open upon initialization, auto-reconnect, close behavior).
public actor EventSource {
    /// The ready state of the EventSource.
    public enum ReadyState: Int, Codable, Sendable, CustomStringConvertible {
        /// The connection is being established.
        case connecting = 0

        /// The connection is open and events are being received.
        case open = 1

        /// The connection is closed.
        case closed = 2

        public var description: String {
            switch self {
            case .connecting: return "connecting"
            case .open: return "open"
            case .closed: return "closed"
            }
        }
    }

    /// Represents a single Server-Sent Event, containing its id, event name, data, and optional retry interval.
    public struct Event: Hashable, Identifiable, Codable, Sendable {
        /// The event ID (if provided by the server for this event; used for reconnection).
        public let id: String?

        /// The event type name (if provided via "event:"; `nil` implies the default type `"message"`).
        public let event: String?

        /// The event data payload (concatenation of all `data:` lines, retains internal newlines).
        public let data: String

        /// The reconnection retry interval (in milliseconds) if provided by a "retry:" field in this event.
        public let retry: Int?
    }

    /// `Parser` incrementally parses a stream of bytes into Server-Sent Events.
    public actor Parser {
        // State variables for the current event being parsed
        private var currentEventId: String? = nil
        private var currentEventType: String? = nil
        private var currentData: String = ""
        private var currentRetry: Int? = nil

        // Persistent state
        private var lastEventId: String = ""
        private var reconnectionTime: Int = 3000  // Default 3000ms

        // Line parsing state
        private var lineBuffer: [UInt8] = []
        private var sawCR = false

        // Event queue
        private var eventQueue: [Event] = []

        /// Track whether "data:" field was seen in the current event
        private var seenFields: Set<String> = []

        /// Creates a new parser.
        public init() {}

        private func fieldSeen(_ field: String) -> Bool {
            return seenFields.contains(field)
        }

        /// Process a single byte from the event stream
        public func consume(_ byte: UInt8) {
            if byte == 0x0A {  // LF
                if sawCR {
                    // This is a CR+LF sequence, we already processed the line at CR
                    sawCR = false
                } else {
                    // Stand-alone LF
                    let line = processLineBuffer()
                    handleLine(line)
                }
            } else if byte == 0x0D {  // CR
                let line = processLineBuffer()
                handleLine(line)
                sawCR = true
            } else {
                if sawCR {
                    // The CR wasn't followed by LF
                    sawCR = false
                }
                lineBuffer.append(byte)
            }
        }

        /// Convert the line buffer to a string and clear it
        private func processLineBuffer() -> String {
            // Skip UTF-8 BOM if present at the start of the buffer
            if lineBuffer.count >= 3,
                lineBuffer.prefix(3) == [0xEF, 0xBB, 0xBF]
            {
                lineBuffer.removeFirst(3)
            }

            // Use String(decoding:as:) to handle invalid UTF-8 sequences by replacing them with replacement character
            let line = String(decoding: lineBuffer, as: UTF8.self)
            lineBuffer.removeAll(keepingCapacity: true)
            return line
        }

        /// Handle a line from the event stream
        private func handleLine(_ line: String) {
            // Empty line marks the end of an event
            if line.isEmpty {
                dispatchEvent()
                seenFields.removeAll()
                return
            }

            // Comment line - ignore
            if line.hasPrefix(":") {
                return
            }

            // Parse field name and value
            var fieldName = line
            var fieldValue = ""

            if let colonIndex = line.firstIndex(of: ":") {
                fieldName = String(line[..<colonIndex])
                fieldValue = String(line[line.index(after: colonIndex)...])

                // Remove a single leading space if present
                if fieldValue.hasPrefix(" ") {
                    fieldValue.removeFirst()
                }
            }

            // Process field based on name
            switch fieldName {
            case "event":
                currentEventType = fieldValue
                seenFields.insert("event")
            case "data":
                if !currentData.isEmpty {
                    currentData.append("\n")
                }
                currentData.append(fieldValue)
                seenFields.insert("data")
            case "id":
                if !fieldValue.contains("\0") {
                    currentEventId = fieldValue
                    lastEventId = fieldValue
                }
                seenFields.insert("id")
            case "retry":
                if let milliseconds = Int(fieldValue), milliseconds > 0 {
                    reconnectionTime = milliseconds
                    currentRetry = milliseconds
                }
                seenFields.insert("retry")
            default:
                break
            }
        }

        /// Create an event from the current state and add it to the queue
        private func dispatchEvent() {
            let isDataField = currentData.isEmpty && seenFields.contains("data")
            let isRetryOnly =
                currentData.isEmpty && currentEventId == nil && currentEventType == nil
                && !isDataField

            // Reset the event state for the next event
            defer {
                currentEventType = nil
                currentData = ""
                currentEventId = nil
                currentRetry = nil
            }

            guard !isRetryOnly else {
                return
            }

            // Dispatch events only if they have data or other fields
            let event = Event(
                id: currentEventId,
                event: currentEventType,
                data: currentData,
                retry: currentRetry
            )
            eventQueue.append(event)
        }

        /// Get the next event from the queue
        public func getNextEvent() -> Event? {
            return eventQueue.isEmpty ? nil : eventQueue.removeFirst()
        }

        /// Get the last event ID (for reconnection)
        public func getLastEventId() -> String {
            return lastEventId
        }

        /// Get the reconnection time in milliseconds
        public func getReconnectionTime() -> Int {
            return reconnectionTime
        }

        /// Complete parsing, handling any pending bytes
        public func finish() {
            if sawCR {
                let line = processLineBuffer()
                handleLine(line)
                sawCR = false
            }

            // Process any remaining data in the buffer as a line
            if !lineBuffer.isEmpty {
                let line = processLineBuffer()
                handleLine(line)
            }

            // Send an empty line to trigger event dispatch for most test cases
            // This matches the behavior expected by most tests
            if !currentData.isEmpty || currentEventId != nil || currentEventType != nil {
                handleLine("")
            }
        }
    }
}

/// A type alias for `EventSource.Event`.
public typealias SSE = EventSource.Event
