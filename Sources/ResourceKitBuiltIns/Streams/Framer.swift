import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a streamed body into its elements as its chunks arrive, synchronously: the framing rules of
/// <doc:StreamingResponses>, on bytes, never on `Character`s.
///
/// Append each chunk, then take the elements it completed with ``next()`` until it returns `nil`; at the end of the
/// body, ``end()`` returns what remains. An element that grows past `limit` bytes before it is complete throws
/// ``WebserviceError/Reason/bodyTooLarge(limit:)``.
struct Framer {
    /// How a body divides into elements.
    enum Kind: Sendable {
        /// Lines, each one element; blank lines are skipped (JSON Lines, NDJSON).
        case lines
        /// Texts that each start with the record separator, U+001E (RFC 7464).
        case records
        /// Server-sent events (the WHATWG HTML standard's event stream).
        case events
        /// Each chunk as it arrives.
        case chunks
    }

    /// One element's bytes, or an event.
    enum Unit {
        case bytes(Data)
        case event(ServerSentEvent)
    }

    private let kind: Kind
    private let limit: Int
    /// The bytes not yet framed start at ``start``.
    private var buffer: [UInt8] = []
    private var start = 0
    /// How far past ``start`` the buffer was searched for the end of an element.
    private var searched = 0
    /// The body's first bytes have been checked for a byte order mark (events).
    private var checkedBOM = false
    /// The last line ended with CR: an LF that follows belongs to it (events).
    private var afterCR = false
    /// The event being built (events).
    private var event = EventFields()

    /// A framer for a body of `kind` whose elements may have `limit` bytes; for events, `lastEventID` and `retry`
    /// continue a stream that connected again.
    init(_ kind: Kind, limit: Int, lastEventID: String? = nil, retry: Int? = nil) {
        self.kind = kind
        self.limit = limit
        self.retry = retry
        self.lastEventID = lastEventID
        event.lastEventID = lastEventID
    }

    /// Takes the next chunk of the body.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next element the bytes so far complete, or `nil` when it needs more.
    mutating func next() throws -> Unit? {
        switch kind {
        case .lines:
            // A blank line comes back empty, without a copy.
            while let line = try line(endingWith: .lf, blankAsEmpty: true) {
                if !line.isEmpty { return .bytes(line) }
            }
            return nil
        case .records: return try record(atEnd: false)
        case .events: return try nextEvent(atEnd: false)
        case .chunks:
            guard start < buffer.count else { return nil }
            defer { consume(upTo: buffer.count) }
            return .bytes(bytes(start..<buffer.count))
        }
    }

    /// The last element, at the end of the body: a last line without its line end, the last record; an event that
    /// wasn't ended by a blank line is dropped, as the standard says.
    mutating func end() throws -> Unit? {
        switch kind {
        case .lines:
            if let unit = try next() { return unit }
            // A CR at the very end is a line end cut short: dropped, as before an LF.
            let last = buffer.last == 0x0D ? buffer.count - 1 : buffer.count
            let rest = isBlank(start..<buffer.count) ? nil : bytes(start..<last)
            consume(upTo: buffer.count)
            return rest.map { .bytes($0) }
        case .records: return try record(atEnd: true)
        case .events: return try nextEvent(atEnd: true)
        case .chunks: return try next()
        }
    }

    // MARK: - Lines

    private enum LineEnd { case lf, any }

    /// The next whole line, without its line end; `nil` when none is complete yet.
    ///
    /// With `.lf`, a line ends at LF and a CR before it is dropped; with `.any`, at CR, LF or CRLF. With
    /// `blankAsEmpty`, a line of only spaces, tabs and CRs comes back empty. The line counts towards the limit with the
    /// fields of the event it may add to.
    private mutating func line(endingWith end: LineEnd, blankAsEmpty: Bool = false) throws -> Data? {
        if end == .any, afterCR, start < buffer.count {
            afterCR = false
            if buffer[start] == 0x0A { consume(upTo: start + 1) }
        }
        guard let index = terminator(from: start + searched, crToo: end == .any) else {
            searched = buffer.count - start
            // A CR last may be the first half of a CRLF, no part of the line.
            try checkLimit(searched - (end == .lf && buffer.last == 0x0D ? 1 : 0) + eventBytes)
            return nil
        }
        let byte = buffer[index]
        var last = index
        if end == .lf, last > start, buffer[last - 1] == 0x0D { last -= 1 }
        try checkLimit(last - start + eventBytes)
        let line = blankAsEmpty && isBlank(start..<last) ? Data() : bytes(start..<last)
        consume(upTo: index + 1)
        if byte == 0x0D {
            if start < buffer.count {
                if buffer[start] == 0x0A { consume(upTo: start + 1) }
            } else {
                afterCR = true
            }
        }
        return line
    }

    /// The index of the first LF, or CR too, at or after `from`; `nil` when the buffer has none.
    private func terminator(from: Int, crToo: Bool) -> Int? {
        buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress, from < bytes.count else { return nil }
            if !crToo {
                return memchr(base + from, 0x0A, bytes.count - from).map {
                    $0.assumingMemoryBound(to: UInt8.self) - UnsafeMutablePointer(mutating: base)
                }
            }
            var index = from
            while index < bytes.count {
                if bytes[index] == 0x0A || bytes[index] == 0x0D { return index }
                index += 1
            }
            return nil
        }
    }

    /// The buffer's bytes in `range`, copied.
    private func bytes(_ range: Range<Int>) -> Data {
        buffer.withUnsafeBufferPointer { Data(buffer: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Whether the buffer's bytes in `range` are only spaces, tabs and CRs.
    private func isBlank(_ range: Range<Int>) -> Bool {
        buffer.withUnsafeBufferPointer { bytes in
            !bytes[range].contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
        }
    }

    // MARK: - Records

    /// The next text of a JSON text sequence.
    ///
    /// The bytes after a record separator up to the next one, or to the end of the body. A text must end with LF; one that doesn't was cut short (RFC 7464, section 2.1) and is an error.
    private mutating func record(atEnd: Bool) throws -> Unit? {
        while true {
            guard start < buffer.count else { return nil }
            guard buffer[start] == 0x1E else {
                // Bytes before a record separator are no text: only whitespace may stand there.
                if Self.isWhitespace(buffer[start]) {
                    consume(upTo: start + 1)
                    continue
                }
                throw FramingError("A JSON text sequence element doesn't start with the record separator (0x1E).")
            }
            var index = start + 1 + searched
            while index < buffer.count, buffer[index] != 0x1E { index += 1 }
            guard index < buffer.count || atEnd else {
                searched = buffer.count - start - 1
                try checkLimit(searched)
                return nil
            }
            try checkLimit(index - start - 1)
            var text = buffer[(start + 1)..<index]
            consume(upTo: index)
            while let last = text.last, last != 0x0A, Self.isWhitespace(last) { text.removeLast() }
            if text.allSatisfy(Self.isWhitespace) { continue }  // RS RS, or RS LF: no text
            guard text.last == 0x0A else {
                throw FramingError("A JSON text sequence element was cut short: it doesn't end with LF.")
            }
            return .bytes(Data(text))
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    // MARK: - Events

    /// The fields of the event being built, as the standard's buffers hold them.
    private struct EventFields {
        var data: [UInt8] = []
        var hasData = false
        var type: [UInt8] = []
        var lastEventID: String?
    }

    /// The bytes of the event being built's data and type.
    private var eventBytes: Int {
        event.data.count + event.type.count
    }

    /// The reconnection time the stream's last valid `retry` field set, in milliseconds (events).
    private(set) var retry: Int?
    /// The ID of the last event the stream ended (its blank line), for `Last-Event-ID` on a reconnection (events): an
    /// `id` of an event still arriving is not yet the last.
    ///
    /// `nil` until an `id` field came; empty after an empty one, which resets it.
    private(set) var lastEventID: String?

    /// The longest `id` taken, in bytes: it becomes a request's header field on a reconnection.
    static let eventIDLimit = 1_024

    /// The next event the lines so far complete (dispatched by a blank line).
    private mutating func nextEvent(atEnd: Bool) throws -> Unit? {
        if !checkedBOM {
            guard buffer.count - start >= 3 || atEnd else { return nil }
            checkedBOM = true
            if buffer.count - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
                consume(upTo: start + 3)
            }
        }
        while let line = try line(endingWith: .any) {
            if line.isEmpty {
                if let event = dispatch() { return .event(event) }
                continue
            }
            // `line` counted it with the event's fields so far, to which it adds no more than its own bytes.
            process(line)
        }
        return nil
    }

    /// Takes one field line: `field: value`, `field` alone, or a `:` comment.
    private mutating func process(_ line: Data) {
        guard line.first != UInt8(ascii: ":") else { return }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = line[..<(colon ?? line.endIndex)]
        var value = colon.map { line[line.index(after: $0)...] } ?? line[line.endIndex...]
        if value.first == 0x20 { value = value.dropFirst() }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            event.type = Array(value)
        case "data":
            event.data.append(contentsOf: value)
            event.data.append(0x0A)
            event.hasData = true
        case "id":
            // One with a control character (the standard ignores NUL) or a long one couldn't be a header field.
            if value.count <= Self.eventIDLimit, !value.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                event.lastEventID = String(decoding: value, as: UTF8.self)
            }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                retry = Int(String(decoding: value, as: UTF8.self)) ?? retry
            }
        default:
            break
        }
    }

    /// Ends the event at a blank line: returns it, unless it has no data; either way the data and type start over.
    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = event.lastEventID
        defer {
            event.data = []
            event.hasData = false
            event.type = []
        }
        guard event.hasData else { return nil }
        var data = event.data
        if data.last == 0x0A { data.removeLast() }
        return ServerSentEvent(
            type: event.type.isEmpty ? "message" : String(decoding: event.type, as: UTF8.self),
            data: String(decoding: data, as: UTF8.self),
            id: event.lastEventID?.isEmpty == false ? event.lastEventID : nil
        )
    }

    // MARK: - Buffer

    /// Marks the bytes before `end` as framed.
    private mutating func consume(upTo end: Int) {
        start = end
        searched = 0
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
    }

    /// The bytes held for the element still arriving: at most the limit plus ``heldSlack`` once ``next()`` returned
    /// `nil`; the fuzz target `stream-framing` checks it.
    var heldBytes: Int {
        buffer.count - start + eventBytes
    }

    /// How many bytes past the limit a framer may hold: a CR that may come before an LF, a record separator, the first
    /// bytes of events before the byte order mark is checked.
    static let heldSlack = 3

    /// Throws when an element still being gathered has `count` bytes, past the limit.
    private func checkLimit(_ count: Int) throws {
        if count > limit { throw WebserviceError(.bodyTooLarge(limit: limit)) }
    }
}

/// Bytes that break a stream's framing rules.
struct FramingError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
