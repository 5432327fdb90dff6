import Foundation

/// A streamed body framed as its chunks arrive (`Framer`): server-sent events, JSON Lines, JSON text sequences (RFC
/// 7464), and chunks as they come.
///
/// The first byte picks the framing; the next two, little-endian, the element limit (0 to 65 535 bytes); the next, a
/// count `n` of chunk lengths (0 to 31), and the `n` bytes after it the lengths, which the body is cut by in turn (a
/// length of 0 hands over an empty chunk, 64 at most; with no length above 0, the body comes whole). The rest is the
/// body.
///
/// Invariants, with the body framed whole, in one append, as the reference (a differential oracle): the chunked body
/// gives the same elements, then the same error or none, and ends with the same last event ID and `retry`; no element
/// of bytes is longer than the limit; after each chunk's elements are taken, the framer holds at most the limit plus
/// `Framer.heldSlack` bytes. A framing of chunks hands over each non-empty chunk as it is. No crash and no hang.
func fuzzStreamFraming(_ input: inout FuzzInput) {
    let kinds: [Framer.Kind] = [.lines, .records, .events, .chunks]
    let kind = kinds[Int(input.byte()) % kinds.count]
    let limit = Int(input.byte()) | Int(input.byte()) << 8
    let lengths = (0..<Int(input.byte()) % 32).map { _ in Int(input.byte()) }
    let body = [UInt8](input.rest)

    var whole = Framer(kind, limit: limit)
    body.withUnsafeBytes { whole.append($0) }
    let reference = FramedBody(taking: &whole, atEnd: true)

    var framer = Framer(kind, limit: limit)
    var chunked = FramedBody()
    var chunks: [ArraySlice<UInt8>] = []
    var offset = 0
    for length in cycle(lengths, ending: body.count) {
        let chunk = body[offset..<min(offset + length, body.count)]
        offset += chunk.count
        chunks.append(chunk)
        chunk.withUnsafeBytes { framer.append($0) }
        chunked.take(&framer, atEnd: false)
        if chunked.error != nil { break }
        check(
            framer.heldBytes <= limit + Framer.heldSlack,
            "the framer holds \(framer.heldBytes) bytes with a limit of \(limit) (\(kind))")
    }
    if chunked.error == nil { chunked.take(&framer, atEnd: true) }

    for case .bytes(let element) in chunked.units {
        check(kind == .chunks || element.count <= limit, "an element of \(element.count) bytes past \(limit) (\(kind))")
    }
    if kind == .chunks {
        let expected = chunks.filter { !$0.isEmpty }.map { Data($0) }
        check(chunked.units.map(\.fuzzBytes) == expected, "chunks not handed over as they came")
        check(chunked.error == nil && reference.error == nil, "an error from a framing of chunks")
        return
    }
    check(
        chunked.units.map(FuzzUnit.init) == reference.units.map(FuzzUnit.init),
        "chunked elements \(chunked.units.count) differ from whole ones \(reference.units.count) (\(kind), limit "
            + "\(limit), chunks \(chunks.map(\.count)))")
    check(
        chunked.error == reference.error,
        "chunked error \(chunked.error ?? "none") against whole \(reference.error ?? "none") (\(kind), limit \(limit))")
    check(framer.lastEventID == whole.lastEventID, "last event IDs differ (\(kind), limit \(limit))")
    check(framer.retry == whole.retry, "retry \(framer.retry ?? -1) against \(whole.retry ?? -1)")
}

/// The chunk lengths `lengths` in turn until they add up to `total`; `[total]` when none is above 0.
///
/// At most 64 are 0: more empty chunks find nothing new, and would only slow each input down.
private func cycle(_ lengths: [Int], ending total: Int) -> [Int] {
    guard lengths.contains(where: { $0 > 0 }) else { return [total] }
    var result: [Int] = []
    var sum = 0
    var empty = 0
    var index = 0
    while sum < total {
        let length = lengths[index % lengths.count]
        index += 1
        if length == 0 {
            empty += 1
            if empty > 64 { continue }
        }
        result.append(length)
        sum += length
    }
    return result
}

/// The elements a framer gave, and the error that ended them.
private struct FramedBody {
    var units: [Framer.Unit] = []
    /// The error's description; `nil` when none was thrown.
    var error: String?

    init() {}

    init(taking framer: inout Framer, atEnd: Bool) {
        take(&framer, atEnd: atEnd)
    }

    /// Takes the elements `framer` completed, as a stream does: at the end of the body, the last one too.
    mutating func take(_ framer: inout Framer, atEnd: Bool) {
        do {
            while let unit = try atEnd ? framer.next() ?? framer.end() : framer.next() {
                units.append(unit)
            }
        } catch {
            self.error = String(describing: error)
        }
    }
}

/// A framer's unit, comparable.
private enum FuzzUnit: Equatable {
    case bytes(Data)
    case event(type: String, data: String, id: String?)

    init(_ unit: Framer.Unit) {
        switch unit {
        case .bytes(let bytes): self = .bytes(bytes)
        case .event(let event): self = .event(type: event.type, data: event.data, id: event.id)
        }
    }
}

extension Framer.Unit {
    /// The unit's bytes; none for an event.
    fileprivate var fuzzBytes: Data {
        if case .bytes(let bytes) = self { return bytes }
        return Data()
    }
}
