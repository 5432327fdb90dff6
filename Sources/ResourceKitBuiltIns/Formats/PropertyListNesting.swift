import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// The check that keeps a property list from nesting deeper than Foundation's parsers and a recursive model survive.
///
/// Foundation's XML property-list parser recurses once per level, so a body of 150 KB that nests 10 000 arrays
/// overflows the stack and kills the process; a deep binary property list lets a recursive `Decodable` model do the
/// same. ``check(_:limit:)`` reads the bytes once, before `PropertyListDecoder` sees them, and keeps no more than a
/// few words per level (and, for binary property lists, one per object).
enum PropertyListNesting {
    /// The most levels of arrays and dictionaries a property-list resource accepts, as many as `JSONDecoder` allows.
    static let limit = 512

    /// Throws `DecodingError.dataCorrupted` when `data` nests arrays and dictionaries more than `limit` levels deep,
    /// or holds a binary property list whose structure can't be followed.
    static func check(_ data: Data, limit: Int = limit) throws {
        try data.withUnsafeBytes { bytes in
            // Foundation's own test for a binary property list.
            if bytes.count >= 32 + 9, bytes.starts(with: "bplist0".utf8) {
                return try checkBinary(bytes, limit: limit)
            }
            guard let (encoding, bomLength) = byteOrderMark(of: bytes) else {
                return try checkXML(bytes, limit: limit)
            }
            // Foundation converts these to UTF-8 before parsing, and so does the check; text it can't convert fails
            // to parse anyway.
            guard var text = String(bytes: bytes.dropFirst(bomLength), encoding: encoding) else { return }
            try text.withUTF8 { try checkXML(UnsafeRawBufferPointer($0), limit: limit) }
        }
    }

    /// The XML elements that nest: Foundation's parser recurses into each.
    private static let nestingTags = ["array", "dict", "plist"]

    /// The UTF-16 or UTF-32 encoding a byte order mark announces, and the mark's length.
    ///
    /// Other encodings an XML declaration can name keep ASCII's bytes for the characters of tags, so the check reads
    /// them as they are.
    private static func byteOrderMark(of bytes: UnsafeRawBufferPointer) -> (String.Encoding, Int)? {
        switch Array(bytes.prefix(4)) {
        case [0, 0, 0xFE, 0xFF]: (.utf32BigEndian, 4)
        case [0xFE, 0xFF, 0, 0]: (.utf32LittleEndian, 4)
        case let start where start.starts(with: [0xFE, 0xFF]): (.utf16BigEndian, 2)
        case let start where start.starts(with: [0xFF, 0xFE]): (.utf16LittleEndian, 2)
        default: nil
        }
    }

    /// Counts the open `<array>`, `<dict>` and `<plist>` elements of an XML property list, as Foundation's parser
    /// reads them: a tag ends at its first `>`, one ending in `/>` is empty, and comments, CDATA sections, processing
    /// instructions and the DOCTYPE hide what they contain.
    private static func checkXML(_ bytes: UnsafeRawBufferPointer, limit: Int) throws {
        var depth = 0
        var index = 0
        while let open = firstIndex(of: "<", in: bytes, from: index) {
            index = open + 1
            let skipped: (opening: String, closing: String)? =
                if matches("!--", in: bytes, at: index) {
                    ("!--", "-->")
                } else if matches("![CDATA[", in: bytes, at: index) {
                    ("![CDATA[", "]]>")
                } else if matches("?", in: bytes, at: index) {
                    ("?", "?>")
                } else if matches("!", in: bytes, at: index) {
                    ("!", ">")
                } else {
                    nil
                }
            if let skipped {
                let end = firstIndex(of: skipped.closing, in: bytes, from: index + skipped.opening.utf8.count)
                guard let end else { return }  // unterminated: the parser rejects it
                index = end + skipped.closing.utf8.count
                continue
            }
            let isClosing = matches("/", in: bytes, at: index)
            let name = isClosing ? index + 1 : index
            // Foundation recognises a tag by the start of its name; a nested <plist> recurses too.
            let nests = nestingTags.contains { matches($0, in: bytes, at: name) }
            if isClosing {
                if nests { depth = max(depth - 1, 0) }
                continue
            }
            guard let end = firstIndex(of: ">", in: bytes, from: name) else { return }
            index = end + 1
            guard nests else { continue }
            // The outermost <plist> is one level more than the arrays and dictionaries inside it. An empty element
            // is a level too, but stays open for nothing.
            guard depth + 1 <= limit + 1 else { throw tooDeep(limit) }
            if bytes[end - 1] != UInt8(ascii: "/") { depth += 1 }
        }
    }

    /// Follows the object references of a binary property list from its top object, and finds its deepest chain of
    /// arrays, sets and dictionaries; every size and offset is checked against the bytes before it is used.
    ///
    /// Each object is read at most once, however many containers share it, so the walk is linear in the size of the
    /// body. The stack of containers being read is never deeper than `limit`.
    private static func checkBinary(_ bytes: UnsafeRawBufferPointer, limit: Int) throws {
        let trailer = bytes.count - 32
        let (offsetSize, referenceSize) = (Int(bytes[trailer + 6]), Int(bytes[trailer + 7]))
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let objectCount = integer(in: bytes, at: trailer + 8, size: 8),
            let top = integer(in: bytes, at: trailer + 16, size: 8),
            let table = integer(in: bytes, at: trailer + 24, size: 8),
            table >= 9, table < trailer, objectCount >= 1, top < objectCount,
            objectCount <= (trailer - table) / offsetSize
        else { throw corrupted("Its trailer doesn't describe its objects.") }

        /// Where the references of a container start and how many there are; `nil` for any other object.
        func references(of object: Int) throws -> (start: Int, count: Int)? {
            guard let offset = integer(in: bytes, at: table + object * offsetSize, size: offsetSize), offset < table
            else { throw corrupted("An object's offset is outside the object table.") }
            let marker = bytes[offset]
            let referencesPerEntry =
                switch marker >> 4 {
                case 0xA, 0xB, 0xC: 1  // array, ordered set, set
                case 0xD: 2  // dictionary: keys, then values
                default: 0
                }
            guard referencesPerEntry > 0 else { return nil }
            var start = offset + 1
            var entries = Int(marker & 0x0F)
            if entries == 0x0F {  // the count follows as an integer object
                guard start < table, bytes[start] >> 4 == 0x1, bytes[start] & 0x0F <= 3,
                    let count = integer(in: bytes, at: start + 1, size: 1 << Int(bytes[start] & 0x0F))
                else { throw corrupted("A container's count is not an integer.") }
                (entries, start) = (count, start + 1 + (1 << Int(bytes[start] & 0x0F)))
            }
            guard start <= table, entries <= (table - start) / (referencesPerEntry * referenceSize) else {
                throw corrupted("A container's references run past the object table.")
            }
            return (start, entries * referencesPerEntry)
        }

        /// A container being read: where its next reference is, where its references end, and the deepest nesting
        /// among the objects it references so far.
        struct Frame {
            var object: Int
            var next: Int
            var end: Int
            var deepest: Int32 = 0
        }
        let unvisited: Int32 = -2
        let beingRead: Int32 = -1
        // How deep each object nests, once known: 0 for an object that is not a container.
        var depths = [Int32](repeating: unvisited, count: objectCount)
        var stack: [Frame] = []

        func enter(_ object: Int) throws {
            guard let references = try references(of: object) else {
                depths[object] = 0
                return
            }
            guard stack.count < limit else { throw tooDeep(limit) }
            depths[object] = beingRead
            let end = references.start + references.count * referenceSize
            stack.append(Frame(object: object, next: references.start, end: end))
        }

        try enter(top)
        while let current = stack.indices.last {
            guard stack[current].next < stack[current].end else {
                let done = stack.removeLast()
                let depth = done.deepest + 1
                depths[done.object] = depth
                if let parent = stack.indices.last { stack[parent].deepest = max(stack[parent].deepest, depth) }
                continue
            }
            guard let child = integer(in: bytes, at: stack[current].next, size: referenceSize), child < objectCount
            else { throw corrupted("A reference points to no object.") }
            stack[current].next += referenceSize
            switch depths[child] {
            case unvisited:
                try enter(child)
            case beingRead:
                throw corrupted("An array or dictionary contains itself.")
            case let depth:
                guard stack.count + Int(depth) <= limit else { throw tooDeep(limit) }
                stack[current].deepest = max(stack[current].deepest, depth)
            }
        }
    }

    /// The big-endian unsigned integer of `size` bytes at `offset`, if the bytes are there and it fits an `Int`.
    private static func integer(in bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
        let value = bytes[offset..<offset + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(exactly: value)
    }

    /// Whether `text` is at `index` in `bytes`.
    private static func matches(_ text: String, in bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
        let text = text.utf8
        return index <= bytes.count - text.count && bytes[index..<index + text.count].elementsEqual(text)
    }

    /// Where `text` next starts in `bytes`, at `index` or later.
    private static func firstIndex(of text: String, in bytes: UnsafeRawBufferPointer, from index: Int) -> Int? {
        guard let first = text.utf8.first else { return index }
        var index = index
        while index < bytes.count {
            guard let found = bytes[index...].firstIndex(of: first) else { return nil }
            if matches(text, in: bytes, at: found) { return found }
            index = found + 1
        }
        return nil
    }

    private static func tooDeep(_ limit: Int) -> DecodingError {
        .corruptedBody("The property list nests arrays and dictionaries more than \(limit) levels deep.")
    }

    private static func corrupted(_ reason: String) -> DecodingError {
        .corruptedBody("The binary property list is corrupted: \(reason)")
    }
}
