import Foundation

/// `Payload`: the first byte picks the model type, the rest is the JSON body.
///
/// Invariant: the case is the one the type's documentation promises, computed here with plain `JSONDecoder` calls
/// (an array is `.array` when `[Model]` decodes, else `.one`; an object is `.one`, else `.dictionary`; a scalar is
/// `.one`), and the payload throws exactly when none fits.
func fuzzPayload(_ input: inout FuzzInput) {
    input.checkOne(of: [
        { checkPayload(Int.self, $0) }, { checkPayload(String.self, $0) }, { checkPayload([Int].self, $0) },
        { checkPayload(Point.self, $0) },
    ])
}

/// A model whose properties are optional, so it decodes from any object.
private struct Point: Decodable, Equatable {
    var x: Int?
    var y: Int?
}

private func checkPayload<Model: Decodable & Equatable & SendableMetatype>(_: Model.Type, _ body: Data) {
    let decoder = JSONDecoder()
    let payload: Payload<Model>?
    do {
        payload = try Resource<Payload<Model>>(get: URL(fileURLWithPath: "/")).parse(body, nil)
    } catch {
        _ = (error as? DecodingError)?.summary
        payload = nil
    }
    guard let document = try? decoder.decode(JSONValue.self, from: body) else { return }
    let expected: Payload<Model>? =
        switch document {
        case .array:
            (try? decoder.decode([Model].self, from: body)).map(Payload.array)
                ?? (try? decoder.decode(Model.self, from: body)).map(Payload.one)
        case .object:
            (try? decoder.decode(Model.self, from: body)).map(Payload.one)
                ?? (try? decoder.decode([String: Model].self, from: body)).map(Payload.dictionary)
        default:
            (try? decoder.decode(Model.self, from: body)).map(Payload.one)
        }
    check(same(payload, expected), "\(String(describing: payload)) where \(String(describing: expected)) was due")
}

/// Whether `a` and `b` are the same case with equal models: `Payload` itself isn't `Equatable`.
private func same<Model: Equatable>(_ a: Payload<Model>?, _ b: Payload<Model>?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (.one(let left)?, .one(let right)?): left == right
    case (.array(let left)?, .array(let right)?): left == right
    case (.dictionary(let left)?, .dictionary(let right)?): left == right
    default: false
    }
}
