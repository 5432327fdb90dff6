import Foundation
internal import ResourceKitSupport

/// An HTTP request as every middleware and transport gets it: its method, URL, header fields in order, and body.
///
/// ``Webservice`` makes one from a ``Resource``; a ``Middleware`` may change it and pass it on, and a ``Transport``
/// sends exactly it, the body included. `URLRequest(_:)` converts it for a transport of yours built on `URLSession`.
///
/// ```swift
/// var request = request
/// request.setValue(key, forHTTPHeaderField: "X-API-Key")
/// return try await next(request, context)
/// ```
public struct Request: Sendable {
    /// The method's name as it goes on the wire, such as `GET` or `PROPFIND`.
    public var method: String
    /// The URL, its query included.
    public var url: URL
    /// The header fields in the order they are sent; a name may be there more than once.
    public var headerFields: [HeaderField]
    /// The body, `nil` for none: bytes, a file read as it is sent, or a stream.
    public var body: RequestBody?

    /// Creates a request from its parts.
    public init(method: String = "GET", url: URL, headerFields: [HeaderField] = [], body: RequestBody? = nil) {
        self.method = method
        self.url = url
        self.headerFields = headerFields
        self.body = body
    }

    /// The value of the header field `name`, matched in any letter case; repeated fields joined by commas.
    public func value(forHTTPHeaderField name: String) -> String? {
        headerFields.value(named: name)
    }

    /// Sets the header field `name` to `value`, replacing every field of that name (in any letter case); `nil` removes
    /// them.
    public mutating func setValue(_ value: String?, forHTTPHeaderField name: String) {
        headerFields.set(value, named: name)
    }

    /// Adds a header field `name` with `value` after the others, keeping those of the same name.
    public mutating func addValue(_ value: String, forHTTPHeaderField name: String) {
        headerFields.append(HeaderField(name: name, value: value))
    }
}

/// One header field: a name, compared in any letter case, and its value.
public struct HeaderField: Sendable, Hashable {
    /// The field's name, as it is sent.
    public var name: String
    /// The field's value.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension [HeaderField] {
    /// The value of the fields named `name`, in any letter case, joined by commas; `nil` without one.
    ///
    /// Without an array of the matches: a field is rarely repeated.
    public func value(named name: String) -> String? {
        guard let first = firstIndex(where: { sameHeaderName($0.name, name) }) else { return nil }
        var value = self[first].value
        for field in self[(first + 1)...] where sameHeaderName(field.name, name) {
            value += ", " + field.value
        }
        return value
    }

    /// Replaces the fields named `name` with one of `value` where the first was, or at the end; `nil` removes them.
    public mutating func set(_ value: String?, named name: String) {
        let first = firstIndex { sameHeaderName($0.name, name) }
        removeAll { sameHeaderName($0.name, name) }
        guard let value else { return }
        insert(HeaderField(name: name, value: value), at: Swift.min(first ?? count, count))
    }

    /// The fields by name: each name under its first spelling, with the values of all its spellings joined by commas in
    /// the order they arrived.
    ///
    /// One pass that finds a name by its bytes in ASCII lowercase, so a head of thousands of fields costs thousands
    /// of steps, not millions.
    public var dictionary: [String: String] {
        var positions: [[UInt8]: Int] = [:]
        var names: [String] = []
        var values: [[String]] = []
        for field in self {
            let key = field.name.utf8.map(asciiLowercase)
            if let position = positions[key] {
                values[position].append(field.value)
            } else {
                positions[key] = names.count
                names.append(field.name)
                values.append([field.value])
            }
        }
        var headers = [String: String](minimumCapacity: names.count)
        for (name, values) in zip(names, values) {
            let value = values.count == 1 ? values[0] : values.joined(separator: ", ")
            // Names of other bytes that are equal strings (`"caf\u{E9}"`, `"cafe\u{301}"`) share a key.
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return headers
    }
}
