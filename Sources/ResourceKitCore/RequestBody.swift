import Foundation

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
        /// A form, encoded by its function when the resource is made (``init(encoding:)``).
        case encoding(@Sendable (_ random: () -> UInt64) throws(WebserviceError) -> (body: Data, contentType: String))
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
    /// - Throws: ``WebserviceError/Reason/encoding(_:)`` for a form that can't be encoded (a multipart part's file that
    ///   can't be read), or a file body whose URL isn't a `file:` URL.
    public func encoded(
        random: () -> UInt64 = { UInt64.random(in: .min ... .max) }
    ) throws(WebserviceError) -> (body: Data, contentType: String) {
        switch storage {
        case .data(let data):
            return (data, "application/octet-stream")
        case .encoding(let encode):
            return try encode(random)
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
        case .encoding: try encoded().body
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

    /// A form that `encode` encodes when the resource is made: it returns the bytes and the `Content-Type` that
    /// describes them, given a source of random bits (for a boundary), as ``RequestBody/multipart(_:)`` does.
    public init(
        encoding encode:
            @escaping @Sendable (_ random: () -> UInt64) throws(WebserviceError) -> (
                body: Data, contentType: String
            )
    ) {
        storage = .encoding(encode)
    }
}

extension Encodable where Self == RequestBody {
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
