import Foundation
internal import ResourceKitSupport

/// A request body sent as its own bytes with its own `Content-Type`: a form or a file, rather than JSON.
///
/// Pass it as the body of a `Decodable` or `Void` resource's method. The initializer encodes a form once, when the
/// resource is created, and sends the body's `Content-Type` unless `headers` names one. See <doc:SendingForms> and
/// <doc:TransferringFiles>.
///
/// ```swift
/// let upload = try Resource<Receipt>(url: uploadURL, method: .post(.multipart([
///     .field("title", "Hi"), .file("video", at: videoFileURL, contentType: "video/mp4"),
/// ])))
/// ```
public struct RequestBody: Encodable, Sendable {
    /// What the body is made of.
    enum Storage: Sendable {
        /// Bytes, sent as they are.
        case data(Data)
        /// A `multipart/form-data` form (RFC 7578).
        case multipart([Part])
        /// An `application/x-www-form-urlencoded` form.
        case urlEncoded([URLQueryItem])
        /// A file's contents, read as they are sent.
        case file(URL, contentType: String)
    }

    /// What the body is made of.
    let storage: Storage

    /// Throws `EncodingError.invalidValue`: a request body is sent as it is, never JSON-encoded.
    ///
    /// It is `Encodable` only so that it fits in an `HTTPMethod<any Encodable & Sendable>`; put it there, not inside
    /// another `Encodable` value.
    ///
    /// ```swift
    /// let rejected = try Resource<Void>(url: url, method: .post(["form": RequestBody.urlEncoded([])]))  // throws
    /// ```
    public func encode(to encoder: any Encoder) throws {
        let reason =
            "A RequestBody is sent as it is, never JSON-encoded: make it the whole body of a resource's method, "
            + "not a value inside another Encodable one."
        throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: reason))
    }

    /// The body's bytes and the `Content-Type` that describes them.
    ///
    /// - Parameter random: The source of a multipart boundary's random bits; yours in tests.
    /// - Returns: The bytes (none for a file, which is read as it is sent), and a value such as
    ///   `multipart/form-data; boundary=ResourceKit-…`.
    /// - Throws: ``WebserviceError/Reason/encoding(_:)`` for a multipart part that can't be encoded (see
    ///   ``Multipart/encoded(_:random:)``), or a file body whose URL isn't a `file:` URL.
    func encoded(
        random: () -> UInt64 = { UInt64.random(in: .min ... .max) }
    ) throws(WebserviceError) -> (body: Data, contentType: String) {
        switch storage {
        case .data(let data):
            return (data, "application/octet-stream")
        case .multipart(let parts):
            return try Multipart.encoded(parts, random: random)
        case .urlEncoded(let fields):
            return (Data(HTTPSyntax.formEncoded(fields).utf8), "application/x-www-form-urlencoded")
        case .file(let url, let contentType):
            guard url.isFileURL else {
                throw WebserviceError(
                    .encoding(
                        URLError(
                            .unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "A file body needs a file: URL."])))
            }
            try validateHeaderField(name: "Content-Type", value: contentType)
            return (Data(), contentType)
        }
    }

    /// The file whose contents are the body, read as they are sent; `nil` for a body in memory.
    ///
    /// A transport sends the file's bytes, read as they are sent, such as with `URLSession`'s
    /// `uploadTask(with:fromFile:)`; ``length()`` is its size.
    public var file: URL? {
        if case .file(let url, _) = storage { url } else { nil }
    }

    /// The body's bytes, `nil` for a ``file``: bytes as they are, a form encoded now.
    ///
    /// - Throws: ``WebserviceError/Reason/encoding(_:)`` for a form that can't be encoded (a multipart part's file that
    ///   can't be read).
    public func bytes() throws(WebserviceError) -> Data? {
        switch storage {
        case .data(let data): data
        case .file: nil
        case .multipart, .urlEncoded: try encoded().body
        }
    }

    /// The number of bytes the body sends, for its `Content-Length`: a file's size, read now.
    ///
    /// - Throws: `CocoaError` for a file that is missing or isn't a regular file, as the load would; what
    ///   ``bytes()`` throws.
    public func length() throws -> Int64 {
        if let file { return try file.regularFileSize() }
        return Int64(try bytes()?.count ?? 0)
    }

    /// The whole body in memory: ``bytes()``, or the file's contents read now.
    ///
    /// For a transport that sends a body only whole, as `URLSession.data(for:)` does.
    public func collect() throws -> Data {
        if let file { return try file.regularFileContents() }
        return try bytes() ?? Data()
    }
}

extension RequestBody {
    /// A body of `data`, sent as it is.
    public init(_ data: Data) {
        storage = .data(data)
    }
}

extension Encodable where Self == RequestBody {
    /// A `multipart/form-data` body (RFC 7578) of text fields and files, for uploads.
    ///
    /// Its boundary occurs in none of the parts, and names and file names keep their non-ASCII characters. See
    /// <doc:SendingForms>.
    ///
    /// ```swift
    /// let upload = try Resource<Void>(url: uploadURL, method: .post(.multipart([
    ///     .field("title", "Holiday"), .file("photo", at: photoFileURL, contentType: "image/jpeg"),
    /// ])))
    /// ```
    public static func multipart(_ parts: [RequestBody.Part]) -> RequestBody {
        RequestBody(storage: .multipart(parts))
    }

    /// An `application/x-www-form-urlencoded` body: `name=value` pairs, percent-encoded completely, as query items are.
    ///
    /// An item without a value is sent as its name alone. See <doc:SendingForms>.
    ///
    /// ```swift
    /// let login = try Resource<Token>(url: tokenURL, method: .post(.urlEncoded([
    ///     URLQueryItem(name: "grant_type", value: "password"), URLQueryItem(name: "username", value: "ada"),
    /// ])))
    /// ```
    public static func urlEncoded(_ fields: [URLQueryItem]) -> RequestBody {
        RequestBody(storage: .urlEncoded(fields))
    }

    /// The contents of the file at `url`, read from disk as they are sent, never held in memory whole.
    ///
    /// The file is read when the request is sent, and again for a retry; see <doc:TransferringFiles>.
    ///
    /// ```swift
    /// let upload = try Resource<Receipt>(url: uploadURL, method: .put(.file(videoFileURL, contentType: "video/mp4")))
    /// ```
    public static func file(_ url: URL, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(storage: .file(url, contentType: contentType))
    }
}
