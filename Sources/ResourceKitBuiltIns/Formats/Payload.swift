import ResourceKitCore
internal import ResourceKitSupport
/// A response that may hold one model, an array of models, or a dictionary of models, and says which one the server
/// sent.
///
/// It is `Decodable` whenever `Model` is, and decodes in one pass; the top-level JSON value decides the case, as
/// <doc:DefiningResources> describes.
///
/// ```swift
/// let search = Resource<Payload<Episode>>(get: searchURL)
/// ```
public enum Payload<Model> {
    /// The body is a single model.
    case one(Model)
    /// The body is an array of models, in order.
    case array([Model])
    /// The body is an object whose values are models, by key.
    case dictionary([String: Model])
}

extension Payload: Sendable where Model: Sendable {}

extension Payload: Decodable where Model: Decodable {
    /// Decodes the payload in the shape the top-level value has, or throws `DecodingError.typeMismatch` listing the
    /// shapes it tried.
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if (try? decoder.unkeyedContainer()) != nil {
            do {
                self = .array(try value.decode([Model].self))
            } catch let arrayError {
                do {
                    self = .one(try value.decode(Model.self))
                } catch {
                    throw Self.mismatch(
                        decoder, found: "an array", tried: [("[\(Model.self)]", arrayError), ("\(Model.self)", error)])
                }
            }
            return
        }
        do {
            self = .one(try value.decode(Model.self))
        } catch let modelError {
            guard (try? decoder.container(keyedBy: AnyCodingKey.self)) != nil else {
                throw Self.mismatch(decoder, found: Self.kind(of: value), tried: [("\(Model.self)", modelError)])
            }
            do {
                self = .dictionary(try value.decode([String: Model].self))
            } catch {
                throw Self.mismatch(
                    decoder, found: "an object",
                    tried: [("\(Model.self)", modelError), ("[String: \(Model.self)]", error)])
            }
        }
    }

    /// The error for a value that fits no shape: what was found, and each type tried with its error.
    private static func mismatch(
        _ decoder: any Decoder,
        found: String,
        tried attempts: [(type: String, error: any Error)]
    ) -> DecodingError {
        let reasons = attempts.map { attempt in
            let reason = (attempt.error as? DecodingError)?.summary ?? String(describing: attempt.error)
            return "as \(attempt.type), \(reason)"
        }
        let message =
            "Expected \(Model.self), or an array or object of it, but found \(found) that fails "
            + reasons.joined(separator: "; and ") + "."
        return DecodingError.typeMismatch(
            Payload.self,
            DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: message, underlyingError: attempts.first?.error)
        )
    }

    /// What a scalar value is, for the error message: `null`, `a string`, `a Boolean` or `a number`.
    private static func kind(of value: any SingleValueDecodingContainer) -> String {
        if value.decodeNil() { return "null" }
        if (try? value.decode(String.self)) != nil { return "a string" }
        if (try? value.decode(Bool.self)) != nil { return "a Boolean" }
        if (try? value.decode(Double.self)) != nil { return "a number" }
        return "a value"
    }
}
