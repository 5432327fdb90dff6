import Foundation

extension Resource {
    /// Creates a resource whose body is parsed with `JSONSerialization` and then shaped by `parseJSON`.
    ///
    /// This is the Swift Talk style for APIs that don't map neatly onto `Decodable`: `parseJSON` receives the
    /// JSON value (`[String: Any]`, `[Any]`, `String`, `NSNumber`, or `NSNull`) and returns the model, or `nil`
    /// when the JSON has the wrong shape.
    ///
    /// ```swift
    /// let cities = Resource<[City]>(url: citiesURL, parseJSON: { json in
    ///     (json as? [[String: Any]])?.compactMap(City.init(json:))
    /// })
    /// ```
    ///
    /// The request asks for JSON with `Accept: application/json`, and a body is sent as
    /// `Content-Type: application/json`, unless `headers` already names those fields.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method and its body bytes. Defaults to `GET`.
    ///   - headers: Header fields to send. Defaults to none.
    ///   - parseJSON: Turns the JSON value into the model; return `nil` when its shape is wrong.
    public init(
        url: URL,
        method: HTTPMethod<Data> = .get,
        headers: [String: String] = [:],
        parseJSON: @escaping @Sendable (Any) throws -> A?
    ) {
        let headers = Self.jsonHeaders(headers, sendsBody: method.body != nil)
        self.init(
            url: url, method: method, headers: headers,
            parse: { data in
                let json: Any
                do {
                    json = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
                } catch {
                    throw JSONResourceError.invalidJSON(error)
                }
                guard let model = try parseJSON(json) else {
                    throw JSONResourceError.unexpectedShape(expected: "\(A.self)", found: Self.kind(of: json))
                }
                return model
            })
    }

    /// `headers` plus `Accept: application/json` and, when a body is sent, `Content-Type: application/json`,
    /// each unless `headers` names it already (in any letter case).
    static func jsonHeaders(_ headers: [String: String], sendsBody: Bool) -> [String: String] {
        var result = headers
        let names = Set(headers.keys.map { $0.lowercased() })
        if !names.contains("accept") {
            result["Accept"] = "application/json"
        }
        if sendsBody, !names.contains("content-type") {
            result["Content-Type"] = "application/json"
        }
        return result
    }

    private static func kind(of json: Any) -> String {
        switch json {
        case is [String: Any]: "object"
        case is [Any]: "array"
        case is String: "string"
        case is NSNull: "null"
        default: "number or boolean"
        }
    }
}
