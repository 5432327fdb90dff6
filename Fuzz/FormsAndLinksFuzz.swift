import Foundation

/// `Link` header parsing: the first line is the base URL's path, the rest the field value.
///
/// Invariants: a next link is always an `http` or `https` URL, and there are never more links than `<` in the value.
func fuzzLinkHeader(_ input: inout FuzzInput) {
    let base = URL(string: "https://api.example.com/" + input.line()) ?? URL(string: "https://api.example.com/")!
    let value = String(decoding: input.rest, as: UTF8.self)
    check(
        LinkHeader.links(in: value).count <= value.unicodeScalars.filter { $0 == "<" }.count,
        "links from \(value.debugDescription)")
    if let next = try? LinkHeader.target(of: "next", in: value, relativeTo: base) {
        check(
            ["http", "https"].contains(next.scheme?.lowercased()), "next link \(next) from \(value.debugDescription)")
    }
}

/// `multipart/form-data` encoding, read back by a form parser: the first byte says whether combining marks follow the
/// quotes, backslashes, line breaks and separators of the names, then come lines for a part's name and file name, and
/// the rest is its content.
///
/// Invariant: a parser that reads the body as RFC 7578 and HTML's form parsing algorithm do (a quoted parameter ends
/// at the next `"`; no backslash escapes) finds exactly the two parts made: a file part with its name, file name,
/// type and content, and a text field named as the file part whose value is the file name; each name and file name
/// with `"`, CR and LF percent-encoded and nothing else changed, and no other parameter.
func fuzzMultipart(_ input: inout FuzzInput) {
    let marked = input.byte() & 1 == 1
    let (name, filename) = (withCombiningMarks(input.line(), marked), withCombiningMarks(input.line(), marked))
    let content = input.rest
    let form = RequestBody.multipart([
        .file(name, filename: filename, contentType: "application/octet-stream", data: content), .field(name, filename),
    ])
    guard let (body, contentType) = try? form.encoded() else { return check(false, "encoding failed") }
    let boundary = Array(contentType.utf8.dropFirst("multipart/form-data; boundary=".utf8.count))
    guard let parts = formParts(of: Array(body), boundary: boundary) else {
        return check(false, "no form in \(String(decoding: body, as: UTF8.self).debugDescription)")
    }
    let expected = [
        FormPart(
            parameters: [[Array("name".utf8), escaped(name)], [Array("filename".utf8), escaped(filename)]],
            contentType: Array("application/octet-stream".utf8), content: Array(content)),
        FormPart(parameters: [[Array("name".utf8), escaped(name)]], contentType: nil, content: Array(filename.utf8)),
    ]
    check(parts == expected, "parts \(parts) of \(String(decoding: body, as: UTF8.self).debugDescription)")
}

/// `text`'s UTF-8 bytes with `"`, CR and LF percent-encoded: what RFC 7578 and HTML ask of a name, written apart from
/// the library's encoder.
private func escaped(_ text: String) -> [UInt8] {
    text.utf8.flatMap { byte -> [UInt8] in
        switch byte {
        case UInt8(ascii: "\""): Array("%22".utf8)
        case UInt8(ascii: "\r"): Array("%0D".utf8)
        case UInt8(ascii: "\n"): Array("%0A".utf8)
        default: [byte]
        }
    }
}

/// A part of a form as a parser reads it: its `Content-Disposition` parameters (name and value bytes, in order), its
/// `Content-Type` and its content.
private struct FormPart: Equatable, CustomStringConvertible {
    var parameters: [[[UInt8]]]
    var contentType: [UInt8]?
    var content: [UInt8]

    var description: String {
        let shown = parameters.map { $0.map { String(decoding: $0, as: UTF8.self) } }
        return "\(shown) \(contentType.map { String(decoding: $0, as: UTF8.self) } ?? "-") \(content.count) bytes"
    }
}

/// The parts of a `multipart/form-data` body, read on bytes: each delimited by `--boundary` after a CRLF, with header
/// lines up to an empty line; `nil` for a body that isn't such a form.
private func formParts(of body: [UInt8], boundary: [UInt8]) -> [FormPart]? {
    let crlf = Array("\r\n".utf8)
    let delimiter = crlf + Array("--".utf8) + boundary
    // The body starts with the first delimiter without its CRLF, so one is put in front.
    let text = crlf + body
    var pieces: [[UInt8]] = []
    var start = 0
    var index = 0
    while index + delimiter.count <= text.count {
        if text[index..<index + delimiter.count].elementsEqual(delimiter) {
            pieces.append(Array(text[start..<index]))
            index += delimiter.count
            start = index
        } else {
            index += 1
        }
    }
    // Before the first delimiter: nothing; after the last: `--` and a CRLF.
    guard pieces.count >= 2, pieces[0].isEmpty, text[start...].elementsEqual(Array("--\r\n".utf8)) else { return nil }
    var parts: [FormPart] = []
    for piece in pieces.dropFirst() {
        guard let part = formPart(piece) else { return nil }
        parts.append(part)
    }
    return parts
}

/// One part after its delimiter: CRLF, header lines, an empty line and the content; `nil` when it is malformed.
private func formPart(_ piece: [UInt8]) -> FormPart? {
    let crlf = Array("\r\n".utf8)
    guard piece.starts(with: crlf) else { return nil }
    var lines: [[UInt8]] = []
    var index = 2
    while true {
        guard let end = (index..<max(index, piece.count - 1)).first(where: { piece[$0] == 13 && piece[$0 + 1] == 10 })
        else { return nil }
        if end == index { break }
        lines.append(Array(piece[index..<end]))
        index = end + 2
    }
    var part = FormPart(parameters: [], contentType: nil, content: Array(piece[(index + 2)...]))
    for line in lines {
        if line.starts(with: "Content-Disposition: form-data".utf8) {
            guard let parameters = dispositionParameters(line.dropFirst("Content-Disposition: form-data".utf8.count))
            else { return nil }
            part.parameters = parameters
        } else if line.starts(with: "Content-Type: ".utf8) {
            part.contentType = Array(line.dropFirst("Content-Type: ".utf8.count))
        } else {
            return nil
        }
    }
    return part
}

/// The parameters after `form-data`: each `; name="value"`, the value ending at the next `"` (no escapes, as HTML's
/// form parser reads it); `nil` for anything else.
private func dispositionParameters(_ text: ArraySlice<UInt8>) -> [[[UInt8]]]? {
    var parameters: [[[UInt8]]] = []
    var rest = text
    while !rest.isEmpty {
        guard rest.starts(with: "; ".utf8) else { return nil }
        rest = rest.dropFirst(2)
        guard let equals = rest.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let name = Array(rest[..<equals])
        rest = rest[(equals + 1)...]
        guard rest.first == UInt8(ascii: "\""), let close = rest.dropFirst().firstIndex(of: UInt8(ascii: "\"")) else {
            return nil
        }
        parameters.append([name, Array(rest[(rest.startIndex + 1)..<close])])
        rest = rest[(close + 1)...]
    }
    return parameters
}
