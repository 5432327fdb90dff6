import Foundation
import ResourceKitCore
internal import ResourceKitSupport

extension HTTPMethod<any Encodable & Sendable> {
    /// The method with its body as bytes, and the media type of those bytes: a `Data` body as it is, with `nil`; a
    /// ``RequestBody`` as its own bytes, with its `Content-Type`, and its file for one read as it is sent; any other
    /// encoded by `encoder`, as `application/json`.
    ///
    /// - Throws: ``WebserviceError/Reason/encoding(_:)`` when the body can't be encoded.
    func encoded(
        with encoder: JSONEncoder
    ) throws(WebserviceError) -> (method: HTTPMethod<Data>, contentType: String?, file: URL?) {
        var contentType: String?
        var file: URL?
        let method = try map { body throws(WebserviceError) -> Data in
            switch body {
            case let data as Data:
                return data
            case let form as RequestBody:
                let (bytes, formType) = try form.encoded()
                contentType = formType
                file = form.file
                return bytes
            default:
                contentType = "application/json"
                do {
                    return try encoder.encode(body)
                } catch {
                    throw WebserviceError(.encoding(error))
                }
            }
        }
        return (method, contentType, file)
    }
}
