import Foundation
import Hummingbird

extension Request {
    /// The scheme and authority clients used to reach the service, such as `http://127.0.0.1:54321`, for building
    /// absolute URLs.
    var baseURL: String {
        "http://\(head.authority ?? "localhost")"
    }

    /// Reads the body and decodes it: 400 `malformed_json` when it isn't a JSON object, 422 `invalid_body` when it is
    /// one but a field is missing or has the wrong type.
    func decodeJSON<Body: Decodable>(_ type: Body.Type, context: some RequestContext) async throws -> Body {
        let buffer = try await body.collect(upTo: context.maxUploadSize)
        let data = Data(buffer.readableBytesView)
        guard (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else {
            throw APIError.malformedJSON("The body is not a JSON object")
        }
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch let error as DecodingError {
            throw APIError.invalidBody(Self.explain(error))
        }
    }

    private static func explain(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _):
            "Missing field \"\(key.stringValue)\""
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            "Field \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" must be a \(type)"
        case .dataCorrupted(let context):
            context.debugDescription
        @unknown default:
            "The body doesn't match the expected fields"
        }
    }
}
