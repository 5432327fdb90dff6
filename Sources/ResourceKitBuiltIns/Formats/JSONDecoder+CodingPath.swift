import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// The value at a path of keys and indices inside a larger document, decoded in one pass and without decoding
/// anything beside it.
///
/// ``init(from:configuration:)`` gets the path as its configuration, from `decode(_:from:configuration:)`, walks it
/// with keyed and unkeyed containers and decodes only the value at its end. A step that is an integer, such as `"0"`,
/// is an index where the document has an array there, and a key where it has an object: the JSON decides. Sibling
/// keys are never looked at, and array elements before an index are stepped over without being decoded.
struct NestedValue<Value: Decodable>: DecodableWithConfiguration {
    /// The decoded value.
    var value: Value

    /// Decodes the value at `path`, the one ``JSONDecoder/decode(_:from:at:)`` was given.
    ///
    /// - Throws: `DecodingError.keyNotFound` when a key or index of the path is missing, with the coding path of the
    ///   container where the walk stopped; `DecodingError.typeMismatch` when the path expects an object or an array
    ///   and finds something else; and whatever decoding `Value` throws, with the full coding path.
    init(from decoder: any Decoder, configuration path: [String]) throws {
        var decoder = decoder
        for step in path {
            decoder = try Self.decoder(forStep: step, in: decoder)
        }
        // Through a container, not `Value(from:)`, so the decoder's strategies for `Date`, `Data` and `URL` apply.
        value = try decoder.singleValueContainer().decode(Value.self)
    }

    /// A decoder for the element at `step` when `decoder` decodes an array and `step` is an integer, otherwise for the
    /// value of the key `step` in the object `decoder` decodes.
    private static func decoder(forStep step: String, in decoder: any Decoder) throws -> any Decoder {
        if let index = Int(step), (try? decoder.unkeyedContainer()) != nil {
            return try Self.decoder(forIndex: index, in: decoder)
        }
        return try Self.decoder(forKey: step, in: decoder)
    }

    /// A decoder for the value of `key` in the object `decoder` decodes.
    private static func decoder(forKey key: String, in decoder: any Decoder) throws -> any Decoder {
        let object = try decoder.container(keyedBy: AnyCodingKey.self)
        let codingKey = AnyCodingKey(stringValue: key)
        guard object.contains(codingKey) else {
            let location = CodingPath.location(object.codingPath)
            var message = "No key \(key.debugDescription) in the object at \(location)."
            if let similar = object.allKeys.first(where: { loosely($0.stringValue) == loosely(key) }) {
                message += " It has \(similar.stringValue.debugDescription): keys match exactly, after the"
                message += " decoder's keyDecodingStrategy."
            }
            throw DecodingError.keyNotFound(
                codingKey, DecodingError.Context(codingPath: object.codingPath, debugDescription: message))
        }
        return try object.superDecoder(forKey: codingKey)
    }

    /// A decoder for the element at `index` of the array `decoder` decodes; earlier elements are skipped undecoded.
    private static func decoder(forIndex index: Int, in decoder: any Decoder) throws -> any Decoder {
        var array = try decoder.unkeyedContainer()
        guard index >= 0 else { throw missingElement(index, in: array) }
        while array.currentIndex < index {
            guard !array.isAtEnd else { throw missingElement(index, in: array) }
            _ = try array.superDecoder()
        }
        guard !array.isAtEnd else { throw missingElement(index, in: array) }
        return try array.superDecoder()
    }

    /// The error for an index that `array` doesn't have.
    private static func missingElement(_ index: Int, in array: any UnkeyedDecodingContainer) -> DecodingError {
        let size = array.count.map { $0 == 1 ? "1 element" : "\($0) elements" } ?? "fewer elements"
        let message = "No element at index \(index) of the array at \(CodingPath.location(array.codingPath)), "
        return DecodingError.keyNotFound(
            AnyCodingKey(intValue: index),
            DecodingError.Context(codingPath: array.codingPath, debugDescription: message + "which has \(size).")
        )
    }

    /// `key` without letter case, `_` and `-`, to point out a near miss such as `feed_entry` for `feedEntry`.
    private static func loosely(_ key: String) -> String {
        key.lowercased().filter { $0 != "_" && $0 != "-" }
    }
}

extension JSONDecoder {
    /// Decodes the value of `type` at `path` in one pass over `data` (see ``NestedValue``); the whole body when `path`
    /// is empty.
    func decode<T: Decodable>(_ type: T.Type, from data: Data, at path: [String]) throws -> T {
        guard !path.isEmpty else { return try decode(type, from: data) }
        return try decode(NestedValue<T>.self, from: data, configuration: path).value
    }
}
