import Foundation

/// Text decoding: the first line is a `Content-Type` value, the rest is the body.
///
/// The body is decoded by the resource (with the charset the line names) and directly in every supported encoding.
///
/// Invariants: a decoder that succeeds gives back the body's bytes when the text is encoded again (no byte replaced,
/// none dropped), so it never makes up U+FFFD; UTF-8 and US-ASCII accept exactly the valid bodies.
func fuzzCharset(_ input: inout FuzzInput) {
    let contentType = input.line()
    let body = input.rest
    if let name = Charset.name(inContentType: contentType) {
        check(!name.isEmpty, "empty charset name from \(contentType.debugDescription)")
        _ = try? Charset.encoding(named: name)
    }
    let text = Resource<String>(url: URL(fileURLWithPath: "/"), textEncoding: .utf8)
    // FoundationNetworking's `HTTPURLResponse` parses a long `Content-Type` of escaped quotes in quadratic time
    // (52 KB: half a second, over the 2 s limit on a loaded machine): Foundation's parser, not ResourceKit's, whose
    // `Charset.name` above reads every length.
    if contentType.utf8.count <= 8192, let response = fuzzResponse(headerFields: ["Content-Type": contentType]) {
        do {
            _ = try text.value(from: body, response: response)
        } catch {
            _ = error.description
        }
    }

    let encodings: [String.Encoding] = [
        .utf8, .utf16, .utf16BigEndian, .utf16LittleEndian, .ascii, .isoLatin1, .isoLatin2, .windowsCP1250,
        .windowsCP1251, .windowsCP1252,
    ]
    for encoding in encodings {
        let decoded = try? Charset.decode(body, as: encoding)
        switch encoding {
        case .utf8:
            let unmarked = body.starts(with: [0xEF, 0xBB, 0xBF]) ? body.dropFirst(3) : body
            let valid = String(validating: unmarked, as: UTF8.self)
            check((decoded == nil) == (valid == nil), "UTF-8 accepts \(Array(body))")
            check(decoded.map { Data($0.utf8) == Data(unmarked) } ?? true, "UTF-8 changed \(Array(body))")
        case .ascii:
            check((decoded != nil) == body.allSatisfy { $0 < 0x80 }, "US-ASCII accepts \(Array(body))")
            check(decoded.map { Data($0.utf8) == body } ?? true, "US-ASCII changed \(Array(body))")
        case .utf16, .utf16BigEndian, .utf16LittleEndian:
            guard let decoded else { break }
            let littleEndian =
                encoding == .utf16LittleEndian || (encoding == .utf16 && body.starts(with: [0xFF, 0xFE]))
            let marker: [UInt8] = littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
            let unmarked = body.starts(with: marker) ? body.dropFirst(2) : body
            let encoded = decoded.data(using: littleEndian ? .utf16LittleEndian : .utf16BigEndian)
            check(encoded == Data(unmarked), "\(encoding) changed \(Array(body))")
        case .isoLatin1:
            check(
                decoded.map { $0.unicodeScalars.map(\.value) == body.map(UInt32.init) } ?? false,
                "ISO-8859-1 changed \(Array(body))")
        default:  // single-byte encodings, which have no U+FFFD of their own
            if let decoded, !body.isEmpty {
                check(!decoded.unicodeScalars.contains("\u{FFFD}"), "\(encoding) made up U+FFFD for \(Array(body))")
            }
        }
    }
}
