import Foundation

/// Coding-path walks: the first line is a path, `/`-separated, where a step that is an integer is an index into an
/// array and a key into an object (`feed/entry/0`); the rest is the JSON body, decoded at that path by
/// `Resource<JSONValue>(get:at:)`.
///
/// Invariant: whenever the whole document decodes, the value at the path is what walking the decoded document
/// finds, and the walk fails exactly when that finds nothing.
func fuzzCodingPath(_ input: inout FuzzInput) {
    let path = input.line().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    let described = CodingPath.describe(path.map { Int($0).map(CodingPath.Component.index) ?? .key($0) })
    check(!described.isEmpty, "empty description of \(path)")
    let body = input.rest
    let atPath: Result<JSONValue, any Error>
    do {
        atPath = .success(try Resource<JSONValue>(get: URL(fileURLWithPath: "/"), at: path).parse(body, nil))
    } catch {
        _ = (error as? DecodingError)?.summary
        atPath = .failure(error)
    }
    guard let document = try? JSONDecoder().decode(JSONValue.self, from: body) else { return }
    let walked = path.reduce(Optional(document)) { value, step in
        switch (value, Int(step)) {
        case (.object(let object)?, _): object[step]
        case (.array(let array)?, let index?): array.indices.contains(index) ? array[index] : nil
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
