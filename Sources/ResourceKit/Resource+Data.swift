import Foundation

extension Resource where A == Data {
    /// Creates a resource whose model is the response body itself, byte for byte.
    ///
    /// Use it for downloads, for formats ResourceKit doesn't parse, or to store or hash a body before reading it.
    /// The parse never fails and never changes a byte; an empty body is an empty `Data`. No header fields are added,
    /// and a body in `method` is sent as it is, so name its `Content-Type` in `headers`.
    ///
    /// ```swift
    /// let export = Resource<Data>(url: baseURL.appendingPathComponent("export.zip"))
    /// let upload = Resource<Data>(url: avatarURL, method: .put(png), headers: ["Content-Type": "image/png"])
    /// ```
    ///
    /// `Data` is also `Decodable`, but ``init(get:headers:decoder:)`` would decode it from a Base64 JSON string;
    /// this initializer is the one for raw bytes.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL.
    ///   - method: The HTTP method and its body bytes, sent unchanged. Defaults to `GET`.
    ///   - headers: Header fields to send. Defaults to none.
    public init(url: URL, method: HTTPMethod<Data> = .get, headers: [String: String] = [:]) {
        self.init(url: url, method: method, headers: headers, parse: { data in data })
    }
}
