import Foundation

/// `WebserviceError`'s description, mirror and `dump`: the first byte picks the case, the next two the status code,
/// then `name: value` header fields up to an empty line, and the rest is the body.
///
/// Invariants: the description is one line of bounded length (at most 200 characters of body), and no output holds
/// the value of a credential header field (each is given a marker value that appears nowhere else).
func fuzzErrorDescription(_ input: inout FuzzInput) {
    let selector = input.byte()
    let statusCode = Int(input.byte()) << 8 | Int(input.byte())
    let marker = "\u{1}credential-marker\u{1}"
    var headers: [String: String] = [:]
    for field in input.headerFields() {
        headers[field.name] = !isSafeHeader(field.name) ? marker : field.value
    }
    let body = input.rest
    let response = Response(statusCode: statusCode, headers: headers, body: body)
    let reason: WebserviceError.Reason =
        switch selector % 4 {
        case 0: .unacceptableStatus(response)
        case 1: .apiError(CocoaError(.coderInvalidValue), response)
        case 2: .parsing(DecodingError.corruptedBody("The body is not valid UTF-8 text."), response)
        default: .nonHTTPResponse(body: body)
        }
    let error = WebserviceError(reason)
    let description = error.description
    var dumped = ""
    dump(error, to: &dumped)
    let outputs = [description, error.localizedDescription, String(reflecting: error), dumped]

    let contentType = error.response?.value(forHTTPHeaderField: "Content-Type") ?? ""
    if !contentType.contains(where: \.isNewline) {
        check(!description.contains(where: \.isNewline), "a line break in \(description.debugDescription)")
    }
    check(description.count <= 300 + contentType.count, "\(description.count) characters of description")
    let elsewhere =
        body.range(of: Data(marker.utf8)) != nil
        || headers.contains { $0.key.contains(marker) || (isSafeHeader($0.key) && $0.value.contains(marker)) }
    if !elsewhere {
        for output in outputs {
            check(!output.contains(marker), "a credential value in \(output.debugDescription)")
        }
    }
}
