import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

/// A property list that nests arrays and dictionaries too deeply is rejected before it is decoded; deep JSON throws.
///
/// Foundation's XML parser recurses per level, and so does a recursive model, so the deep cases run in a child
/// process: a regression crashes the child and fails the test, not the run.
@Suite struct PropertyListNestingTests {
    /// Deep bodies, 10 000 levels, each the way a server could send it.
    enum DeepBody: String, CaseIterable {
        case xmlArrays, xmlDictionaries, xmlInUTF16, binaryArrays, binaryDictionaries

        var data: Data {
            switch self {
            case .xmlArrays: xmlPropertyList(arrays: 10_000)
            case .xmlDictionaries: xmlPropertyList(dictionaries: 10_000)
            case .xmlInUTF16: Data([0xFF, 0xFE]) + xmlPropertyList(arrays: 10_000, encoding: .utf16LittleEndian)
            case .binaryArrays: binaryPropertyList(arrays: 10_000)
            case .binaryDictionaries: binaryPropertyList(dictionaries: 10_000)
            }
        }
    }

    @Test(arguments: DeepBody.allCases)
    func deeplyNestedPropertyListIsRejectedInsteadOfCrashing(body: DeepBody) async throws {
        guard let child = try await ChildProcess.run(body.rawValue, { try await load(body.data) }) else { return }
        #expect(child.exitedNormally, "the child crashed or failed:\n\(child.output.suffix(2_000))")
        #expect(
            child.result == "dataCorrupted: The property list nests arrays and dictionaries more than 512 levels deep.")
    }

    @Test func binaryArrayThatContainsItselfIsRejectedInsteadOfCrashing() async throws {
        // Object 0 is an array whose one element is object 0.
        let selfContaining = binaryPropertyList(objects: [[0xA1, 0x00]])
        guard let child = try await ChildProcess.run("cycle", { try await load(selfContaining) }) else { return }
        #expect(child.exitedNormally, "the child crashed or failed:\n\(child.output.suffix(2_000))")
        #expect(
            child.result
                == "dataCorrupted: The binary property list is corrupted: An array or dictionary contains itself.")
    }

    static let jsonResources: [String] = ["Decodable", "parseJSON"]

    @Test(arguments: jsonResources)
    func deeplyNestedJSONThrowsInsteadOfCrashing(resource: String) async throws {
        let deep = Data((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8)
        let work: () async throws -> String = {
            let service = Webservice(transport: StubTransport.answering(.status(200, body: deep)))
            if resource == "Decodable" {
                _ = try await service.load(Resource<Nested>(get: baseURL))
            } else {
                _ = try await service.load(Resource<Int>(url: baseURL, parseJSON: { _ in 0 }))
            }
            return "decoded"
        }
        guard let child = try await ChildProcess.run(resource, work) else { return }
        #expect(child.exitedNormally, "the child crashed or failed:\n\(child.output.suffix(2_000))")
        #expect(child.result?.hasPrefix("threw") == true, "\(child.result ?? "no result")")
    }

    static let limitAndOneMore: [(body: Data, levels: Int)] = [
        (xmlPropertyList(arrays: 512), 512), (xmlPropertyList(arrays: 513), 513),
        (xmlPropertyList(dictionaries: 512), 512), (xmlPropertyList(dictionaries: 513), 513),
        (binaryPropertyList(arrays: 512), 512), (binaryPropertyList(arrays: 513), 513),
        (binaryPropertyList(dictionaries: 512), 512), (binaryPropertyList(dictionaries: 513), 513),
    ]

    @Test(arguments: limitAndOneMore)
    func nestingUpTo512LevelsDecodesAndOneMoreIsRejected(body: Data, levels: Int) async throws {
        let resource = Resource<Nested>(url: baseURL, propertyListDecoder: PropertyListDecoder())
        if levels <= 512 {
            #expect(try resource.parse(body).depth == levels)
        } else {
            let error = try #require(throws: DecodingError.self) { try resource.parse(body) }
            #expect("\(error)".contains("more than 512 levels deep"))
        }
    }

    static let shallowXMLThatLooksDeep: [(name: String, xml: String)] = [
        ("empty arrays", "<array>" + String(repeating: "<array/><dict />", count: 600) + "</array>"),
        ("a comment", "<array><!--" + String(repeating: "<array>", count: 600) + "--></array>"),
        ("CDATA", "<array><string><![CDATA[" + String(repeating: "<array>", count: 600) + "]]></string></array>"),
        ("attributes", "<array>" + String(repeating: #"<array id="a/">"#, count: 300) + rest(300)),
        ("a processing instruction", "<array><?pi " + String(repeating: "<array>", count: 600) + "?></array>"),
    ]

    /// Closes `count` arrays inside the outermost one.
    private static func rest(_ count: Int) -> String {
        String(repeating: "<string>x</string></array>", count: count) + "</array>"
    }

    @Test(arguments: shallowXMLThatLooksDeep)
    func tagsThatDontNestAreNotCounted(name: String, xml: String) throws {
        let body = Data(("<?xml version=\"1.0\"?><plist version=\"1.0\">" + xml + "</plist>").utf8)
        _ = try PropertyListDecoder().decode(Anything.self, from: body)  // a valid property list
        let resource = Resource<Anything>(url: baseURL, propertyListDecoder: PropertyListDecoder())
        #expect(throws: Never.self, "\(name)") { try resource.parse(body) }
    }

    @Test func corruptedBinaryPropertyListsThrowOrDecodeButNeverCrash() async throws {
        // Every byte of a small binary property list, overwritten with values that make markers, counts, sizes and
        // offsets wrong, and every truncation of it.
        let valid = binaryPropertyList(dictionaries: 3)
        let work: () async throws -> String = {
            let resource = Resource<Nested>(url: baseURL, propertyListDecoder: PropertyListDecoder())
            var (threw, decoded) = (0, 0)
            for index in valid.indices {
                for value: UInt8 in [0x00, 0x01, 0x0F, 0x13, 0x7F, 0xAF, 0xDF, 0xFF] {
                    var corrupted = valid
                    corrupted[index] = value
                    if (try? resource.parse(corrupted)) == nil { threw += 1 } else { decoded += 1 }
                }
                if (try? resource.parse(valid.prefix(index))) == nil { threw += 1 } else { decoded += 1 }
            }
            return "\(try resource.parse(valid).depth) levels; \(threw) threw, \(decoded) decoded"
        }
        guard let child = try await ChildProcess.run("corruptions", work) else { return }
        #expect(child.exitedNormally, "the child crashed or failed:\n\(child.output.suffix(2_000))")
        #expect(child.result?.hasPrefix("3 levels; ") == true, "\(child.result ?? "no result")")
    }
}

/// Loads `body` as a property list into ``Nested`` and says how it ended: `decoded <depth>`, or the
/// `DecodingError`'s case and description.
private func load(_ body: Data) async throws -> String {
    let service = Webservice(transport: StubTransport.answering(.status(200, body: body)))
    do {
        let value = try await service.load(Resource<Nested>(url: baseURL, propertyListDecoder: PropertyListDecoder()))
        return "decoded \(value.depth)"
    } catch let error as WebserviceError {
        guard case .parsing(let error as DecodingError, _) = error.reason else { throw error }
        guard case .dataCorrupted(let context) = error else { return "threw \(error)" }
        return "dataCorrupted: \(context.debugDescription)"
    }
}

/// Arrays in arrays, or dictionaries in dictionaries under the key `k`, as deep as the body nests them.
private struct Nested: Decodable {
    var depth: Int

    init(from decoder: any Decoder) throws {
        if let array = try? decoder.singleValueContainer().decode([Nested].self) {
            depth = 1 + (array.map(\.depth).max() ?? 0)
        } else {
            let dictionary = try decoder.singleValueContainer().decode([String: Nested].self)
            depth = 1 + (dictionary.values.map(\.depth).max() ?? 0)
        }
    }
}

/// Any property list, read without looking inside.
private struct Anything: Decodable {
    init(from decoder: any Decoder) throws {}
}

/// An XML property list of `arrays` nested arrays, or `dictionaries` nested dictionaries under the key `k`.
private func xmlPropertyList(arrays: Int = 0, dictionaries: Int = 0, encoding: String.Encoding = .utf8) -> Data {
    let nested =
        arrays > 0
        ? String(repeating: "<array>", count: arrays) + String(repeating: "</array>", count: arrays)
        : String(repeating: "<dict><key>k</key>", count: dictionaries - 1) + "<dict/>"
            + String(repeating: "</dict>", count: dictionaries - 1)
    let document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">" + nested + "</plist>"
    return document.data(using: encoding) ?? Data()
}

/// A binary property list of `arrays` nested one-element arrays, or `dictionaries` nested one-entry dictionaries
/// under the key `k`.
private func binaryPropertyList(arrays: Int = 0, dictionaries: Int = 0) -> Data {
    let levels = max(arrays, dictionaries)
    let reference = levels < 255 ? 1 : 2
    let key = levels  // the string "k", after the containers
    var objects: [[UInt8]] = []
    for level in 0..<levels {
        let isLast = level == levels - 1
        if arrays > 0 {
            objects.append(isLast ? [0xA0] : [0xA1] + bigEndian(level + 1, size: reference))
        } else {
            objects.append(
                isLast ? [0xD0] : [0xD1] + bigEndian(key, size: reference) + bigEndian(level + 1, size: reference))
        }
    }
    if dictionaries > 0 { objects.append([0x51, UInt8(ascii: "k")]) }
    return binaryPropertyList(objects: objects, referenceSize: reference)
}

/// A binary property list of `objects`, encoded already, whose top object is the first.
private func binaryPropertyList(objects: [[UInt8]], referenceSize: Int = 1) -> Data {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
        offsets.append(bytes.count)
        bytes += object
    }
    let table = bytes.count
    let offsetSize = table < 256 ? 1 : table < 65_536 ? 2 : 4
    for offset in offsets { bytes += bigEndian(offset, size: offsetSize) }
    bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
    bytes += bigEndian(objects.count, size: 8) + bigEndian(0, size: 8) + bigEndian(table, size: 8)
    return Data(bytes)
}

private func bigEndian(_ value: Int, size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}
