import Foundation
import Hummingbird

extension Response {
    /// The content type of every body the service sends.
    static let jsonContentType = "application/json; charset=utf-8"

    /// A response whose body is `value` as JSON, keys sorted so the bytes are the same every time.
    static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        var fields = headers
        fields[.contentType] = jsonContentType
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
