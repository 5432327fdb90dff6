import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The fuzzer's bytes, carved into the structured values a target needs.
///
/// Fields are separated by a line feed, so hand-written seeds read as text: `line()` is the bytes up to the next
/// `\n`, and `rest` is everything after the lines taken. A target that runs out of input gets empty values, never a
/// trap.
struct FuzzInput {
    private var bytes: Data

    init(_ start: UnsafeRawPointer, _ count: Int) {
        bytes = Data(bytes: start, count: count)
    }

    /// The next byte, 0 when the input is used up.
    mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    /// The bytes before the next line feed (or all that is left); the line feed is consumed.
    mutating func lineBytes() -> Data {
        guard let newline = bytes.firstIndex(of: 0x0A) else {
            defer { bytes = Data() }
            return bytes
        }
        defer { bytes = bytes[bytes.index(after: newline)...] }
        return bytes[..<newline]
    }

    /// The next line as text, invalid UTF-8 repaired with U+FFFD.
    mutating func line() -> String {
        String(decoding: lineBytes(), as: UTF8.self)
    }

    /// Header fields from the next lines, `name: value` each, up to an empty line or the end of the input.
    mutating func headerFields() -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        while !bytes.isEmpty {
            let field = line()
            if field.isEmpty { break }
            let parts = field.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            fields.append((String(parts[0]), parts.count == 2 ? String(parts[1].drop { $0 == " " }) : ""))
        }
        return fields
    }

    /// Everything not taken yet.
    var rest: Data {
        Data(bytes)
    }

    /// Runs one of `checks`, chosen by the next byte, on the rest of the input: one driver for several model types.
    mutating func checkOne(of checks: [(Data) -> Void]) {
        let check = checks[Int(byte()) % checks.count]
        check(rest)
    }
}

/// `text` with a combining mark (U+0301) after each quote, backslash, line break, `;`, `,`, `=`, `<` and `>` when
/// `marked` is true: Swift then reads each as part of another `Character`, where a parser of bytes still sees it.
func withCombiningMarks(_ text: String, _ marked: Bool) -> String {
    guard marked else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        result.append(scalar)
        if "'\"\\\r\n;,=<>".unicodeScalars.contains(scalar) { result.append("\u{301}") }
    }
    return String(result)
}

/// Whether the UTF-8 bytes of `part` occur in those of `text`: a match on bytes, as `contains` compares `Character`s.
func containsBytes(_ text: String, _ part: String) -> Bool {
    Data(text.utf8).range(of: Data(part.utf8)) != nil || part.isEmpty
}

/// Stops the fuzzer with `message` when an invariant doesn't hold; libFuzzer saves the input as a crash.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("invariant failed: \(message())\n".utf8))
    abort()
}

/// An HTTP response with `headerFields`, as a transport would hand it to a resource.
func fuzzResponse(_ statusCode: Int = 200, headerFields: [String: String]) -> HTTPURLResponse? {
    URL(string: "https://fuzz.example/resource").flatMap { url in
        HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headerFields)
    }
}

/// Any JSON value, decoded through `Decodable`, so targets can compare what the library decodes with the whole
/// document.
indirect enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else if let string = try? value.decode(String.self) {
            self = .string(string)
        } else if let array = try? value.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try value.decode([String: JSONValue].self))
        }
    }
}
