import Foundation

/// The property-list resource: the first byte picks the model type, the rest is the body (XML or binary).
///
/// Invariant: no crash or hang. The script caps this target's input length, as nesting deep enough to overflow
/// Foundation's parser's stack is issue 10's item 10, which the resource's depth check fixes.
func fuzzPropertyList(_ input: inout FuzzInput) {
    let selector = input.byte()
    let body = input.rest
    switch selector % 4 {
    case 0: parsePropertyList(Settings.self, body)
    case 1: parsePropertyList([String: String].self, body)
    case 2: parsePropertyList([Int].self, body)
    default: parsePropertyList([[String: [Double]]].self, body)
    }
}

private struct Settings: Decodable {
    var name: String
    var volume: Double?
    var enabled: Bool?
    var tags: [String]?
    var created: Date?
    var icon: Data?
}

private func parsePropertyList<Model: Decodable & SendableMetatype>(_: Model.Type, _ body: Data) {
    let resource = Resource<Model>(url: URL(fileURLWithPath: "/"), propertyListDecoder: PropertyListDecoder())
    do {
        _ = try resource.parse(body, nil)
    } catch {
        _ = String(describing: error)
    }
}
