import Foundation

/// `LenientArray`: the first byte picks the element type, the rest is the JSON body.
///
/// Invariant: every element of an array is either decoded or a failure, in order: the elements are those that
/// decode alone, and the failures' indices are the others.
func fuzzLenientArray(_ input: inout FuzzInput) {
    input.checkOne(of: [
        { checkLenientArray(Int.self, $0) }, { checkLenientArray(String.self, $0) },
        { checkLenientArray(Entry.self, $0) },
    ])
}

private struct Entry: Decodable, Equatable {
    var id: String
    var tags: [String]?
}

private func checkLenientArray<Element: Decodable & Equatable & SendableMetatype>(_: Element.Type, _ body: Data) {
    let lenient: LenientArray<Element>?
    do {
        lenient = try Resource<LenientArray<Element>>(get: URL(fileURLWithPath: "/")).parse(body, nil)
        for failure in lenient?.failures.values.map(\.self) ?? [] {
            _ = failure.summary
        }
    } catch {
        lenient = nil
    }
    // A body that is no JSON array makes the lenient array throw; one with an invalid element inside may not.
    guard case .array(let values)? = try? JSONDecoder().decode(JSONValue.self, from: body) else { return }
    guard let lenient else { return check(false, "no lenient array from an array") }
    // Each element alone, through a wrapper that catches its error.
    guard let alone = try? JSONDecoder().decode([Attempt<Element>].self, from: body).map(\.value) else {
        return check(false, "a lenient array from an array whose elements can't be stepped over")
    }
    check(alone.count == values.count, "\(alone.count) attempts for \(values.count) elements")
    check(lenient.elements == alone.compactMap { $0 }, "elements differ from those that decode alone")
    check(lenient.failures.keys.sorted() == alone.indices.filter { alone[$0] == nil }, "wrong failure indices")
}

/// An element decoded on its own, `nil` when it doesn't.
private struct Attempt<Value: Decodable>: Decodable {
    var value: Value?

    init(from decoder: any Decoder) throws {
        value = try? decoder.singleValueContainer().decode(Value.self)
    }
}
