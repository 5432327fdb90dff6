import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// The `charset` of a `Content-Type`, the encodings its IANA names stand for, and a strict decoder for them.
///
/// Foundation decodes most encodings strictly, but not the same way everywhere: Linux drops the last byte of an
/// odd-length UTF-16 body, Apple platforms can keep an unpaired UTF-16 surrogate, and platforms differ on bytes
/// windows-1252 and US-ASCII leave undefined. So the standard library decodes the Unicode encodings and US-ASCII,
/// and undefined windows-1252 bytes are rejected before Foundation sees them: every platform throws for the same
/// bytes.
enum Charset {
    /// IANA charset names and aliases (lowercased), by encoding; the first name is the one errors show.
    private static let names: [(encoding: String.Encoding, names: [String])] = [
        (.utf8, ["utf-8", "utf8", "unicode-1-1-utf-8"]),
        (.utf16, ["utf-16", "csutf16"]),
        (.utf16BigEndian, ["utf-16be", "csutf16be"]),
        (.utf16LittleEndian, ["utf-16le", "csutf16le"]),
        (
            .ascii,
            [
                "us-ascii", "ascii", "ansi_x3.4-1968", "ansi_x3.4-1986", "iso-ir-6", "iso_646.irv:1991", "iso646-us",
                "us", "ibm367", "cp367", "csascii",
            ]
        ),
        (
            .isoLatin1,
            [
                "iso-8859-1", "iso_8859-1", "iso_8859-1:1987", "iso-ir-100", "latin1", "l1", "ibm819", "cp819",
                "csisolatin1",
            ]
        ),
        (.isoLatin2, ["iso-8859-2", "iso_8859-2", "iso_8859-2:1987", "iso-ir-101", "latin2", "l2", "csisolatin2"]),
        (.windowsCP1250, ["windows-1250", "cp1250", "cswindows1250"]),
        (.windowsCP1251, ["windows-1251", "cp1251", "cswindows1251"]),
        (.windowsCP1252, ["windows-1252", "cp1252", "x-cp1252", "cswindows1252"]),
    ]

    /// The bytes each Windows code page leaves undefined; Foundation would turn them into control characters.
    private static let undefinedBytes: [String.Encoding: Set<UInt8>] = [
        .windowsCP1250: [0x81, 0x83, 0x88, 0x90, 0x98],
        .windowsCP1251: [0x98],
        .windowsCP1252: [0x81, 0x8D, 0x8F, 0x90, 0x9D],
    ]

    /// The unquoted `charset` parameter of a `Content-Type`, such as `utf-8` in `text/plain; charset="utf-8"`.
    ///
    /// It is `nil` when there is none, or when it is empty (`charset=`). Parameter names match in any letter case; a `;` inside a quoted value doesn't
    /// end the parameter.
    static func name(inContentType contentType: String) -> String? {
        for parameter in parameters(of: contentType).dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].trimmingCharacters(in: .whitespaces)
            guard name.lowercased() == "charset" else { continue }
            let value = HTTPSyntax.unquoted(parameter[parameter.index(after: equals)...])
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The encoding an IANA charset name or alias stands for, in any letter case.
    static func encoding(named name: String) throws(DecodingError) -> String.Encoding {
        let key = name.lowercased()
        guard let entry = names.first(where: { $0.names.contains(key) }) else {
            throw .corruptedBody("The response's charset \"\(name)\" is not one ResourceKit can decode.")
        }
        return entry.encoding
    }

    /// The IANA name of `encoding` for messages, such as `UTF-8` or `windows-1252`.
    static func displayName(of encoding: String.Encoding) -> String {
        guard let name = names.first(where: { $0.encoding == encoding })?.names.first else {
            return encoding.description
        }
        return name.hasPrefix("windows") ? name : name.uppercased()
    }

    /// Decodes `data` as text in `encoding`, or throws when any byte is not valid in it.
    ///
    /// UTF-8, UTF-16 and US-ASCII are validated and decoded by the standard library, the same on every platform;
    /// Foundation decodes the rest. A byte order mark is not part of the text. UTF-16 (`String.Encoding.utf16`)
    /// follows RFC 2781: a byte order mark picks the byte order; without one the text is big-endian.
    static func decode(_ data: Data, as encoding: String.Encoding) throws(DecodingError) -> String {
        let text: String?
        switch encoding {
        case .utf8:
            text = utf8(data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data)
        case .ascii:
            text = data.allSatisfy { $0 < 0x80 } ? String(decoding: data, as: UTF8.self) : nil
        case .utf16, .utf16BigEndian, .utf16LittleEndian:
            text = utf16(data, as: encoding)
        case .utf32, .utf32BigEndian, .utf32LittleEndian:
            text = data.count.isMultiple(of: 4) ? String(data: data, encoding: encoding) : nil
        case .windowsCP1250, .windowsCP1251, .windowsCP1252:
            let undefined = undefinedBytes[encoding] ?? []
            text = data.contains(where: undefined.contains) ? nil : String(data: data, encoding: encoding)
        default:
            text = String(data: data, encoding: encoding)
        }
        guard let text else {
            throw .corruptedBody("The body is not valid \(displayName(of: encoding)) text.")
        }
        return text
    }

    /// `bytes` as UTF-8 text, or `nil` when they are not valid UTF-8.
    private static func utf8(_ bytes: Data) -> String? {
        let invalid = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true) { _ in }
        return invalid ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// `bytes` as UTF-16 text in the byte order `encoding` names or, for `.utf16`, its byte order mark names, without
    /// the byte order mark; `nil` when the count is odd or a surrogate is unpaired.
    private static func utf16(_ bytes: Data, as encoding: String.Encoding) -> String? {
        guard bytes.count.isMultiple(of: 2) else { return nil }
        var bytes = [UInt8](bytes)
        var bigEndian = encoding != .utf16LittleEndian
        if encoding == .utf16, bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            bigEndian = bytes[0] == 0xFE
            bytes.removeFirst(2)
        } else if bytes.starts(with: bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) {
            bytes.removeFirst(2)
        }
        let units = stride(from: 0, to: bytes.count, by: 2).map { index in
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        let invalid = transcode(units.makeIterator(), from: UTF16.self, to: UTF32.self, stoppingOnError: true) { _ in }
        return invalid ? nil : String(decoding: units, as: UTF16.self)
    }

    /// `value` split at each `;` that is outside a quoted string.
    private static func parameters(of value: String) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var inQuotes = false
        var escaped = false
        for index in value.indices {
            let character = value[index]
            if escaped {
                escaped = false
            } else if inQuotes, character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == ";", !inQuotes {
                parts.append(value[start..<index])
                start = value.index(after: index)
            }
        }
        parts.append(value[start...])
        return parts
    }
}
