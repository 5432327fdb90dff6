import Foundation

/// Why a text resource's parse (``Resource/init(url:method:headers:textEncoding:)``) rejected a response body.
///
/// ```swift
/// do {
///     let text = try await webservice.load(Resource<String>(url: url, textEncoding: .utf8))
/// } catch let error as WebserviceError {
///     if case .unknownCharset(let name)? = error.underlyingError as? TextResourceError { print(name) }
/// }
/// ```
public enum TextResourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The response's `Content-Type` names a charset ResourceKit can't decode; the associated value is the name as
    /// the server sent it.
    case unknownCharset(String)
    /// The body is not valid text in `encoding`: a byte sequence that encoding doesn't define, such as `0xC3 0x28`
    /// in UTF-8, or a UTF-16 body with an odd number of bytes. Nothing is replaced or dropped instead.
    case invalidBytes(encoding: String.Encoding)

    /// A one-line account of the failure.
    public var description: String {
        switch self {
        case .unknownCharset(let name): "The response's charset \"\(name)\" is not one ResourceKit can decode."
        case .invalidBytes(let encoding): "The body is not valid \(Charset.displayName(of: encoding)) text."
        }
    }
}
