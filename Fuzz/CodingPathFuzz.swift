import Foundation

/// Coding-path walks: the first line is a path, `/`-separated, where a component that is an integer is an index
/// (`feed/entry/0`); the rest is the JSON body, decoded at that path by `Resource<JSONValue>(get:at:)`.
///
/// Invariant: whenever the whole document decodes, the value at the path is what walking the decoded document
/// finds, and the walk fails exactly when that finds nothing.
func fuzzCodingPath(_ input: inout FuzzInput) {
    let components = input.line().split(separator: "/", omittingEmptySubsequences: false).map { text in
        Int(text).map(CodingPath.Component.index) ?? .key(String(text))
    }
    let path = CodingPath(components)
    check(!path.description.isEmpty, "empty description of \(path.components)")
    let body = input.rest
    let atPath: Result<JSONValue, any Error>
    do {
        atPath = .success(try Resource<JSONValue>(get: URL(fileURLWithPath: "/"), at: path).parse(body, nil))
    } catch {
        _ = (error as? DecodingError)?.summary
        atPath = .failure(error)
    }
    guard let document = try? JSONDecoder().decode(JSONValue.self, from: body) else { return }
    let walked = path.components.reduce(Optional(document)) { value, component in
        switch (value, component) {
        case (.object(let object)?, .key(let key)): object[key]
        case (.array(let array)?, .index(let index)): array.indices.contains(index) ? array[index] : nil
        default: nil
        }
    }
    switch atPath {
    case .success(let value):
        check(value == walked, "decoded \(value) at \(path) where the document has \(String(describing: walked))")
    case .failure(let error):
        check(walked == nil, "\(error) at \(path) where the document has \(String(describing: walked))")
    }
}
