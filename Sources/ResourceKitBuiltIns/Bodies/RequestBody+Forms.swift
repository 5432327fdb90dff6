import Foundation
import ResourceKitCore
internal import ResourceKitSupport

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
        RequestBody { random throws(WebserviceError) in try Multipart.encoded(parts, random: random) }
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
        RequestBody { _ in (Data(HTTPSyntax.formEncoded(fields).utf8), "application/x-www-form-urlencoded") }
    }
}
