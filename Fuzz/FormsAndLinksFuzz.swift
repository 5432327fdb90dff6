import Foundation

/// `Link` header parsing: the first line is the base URL's path, the rest the field value.
///
/// Invariants: a next link is always an `http` or `https` URL, and there are never more links than `<` in the value.
func fuzzLinkHeader(_ input: inout FuzzInput) {
    let base = URL(string: "https://api.example.com/" + input.line()) ?? URL(string: "https://api.example.com/")!
    let value = String(decoding: input.rest, as: UTF8.self)
    check(
        LinkHeader.links(in: value).count <= value.unicodeScalars.filter { $0 == "<" }.count,
        "links from \(value.debugDescription)")
    if let next = try? LinkHeader.target(of: "next", in: value, relativeTo: base) {
        check(
            ["http", "https"].contains(next.scheme?.lowercased()), "next link \(next) from \(value.debugDescription)")
    }
}

/// `multipart/form-data` encoding: the first line is a part's name, the second its file name, the rest its content.
///
/// Invariants: the boundary occurs in the body only as the parts' delimiters, and a part's header lines hold no line
/// break from the name or file name.
func fuzzMultipart(_ input: inout FuzzInput) {
    let (name, filename, content) = (input.line(), input.line(), input.rest)
    let form = RequestBody.multipart([
        .file(name, filename: filename, contentType: "application/octet-stream", data: content), .field(name, filename),
    ])
    guard let (body, contentType) = try? form.encoded() else { return check(false, "encoding failed") }
    let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
    var delimiters = 0
    var searched = body.startIndex..<body.endIndex
    while let found = body.range(of: Data(boundary.utf8), in: searched) {
        delimiters += 1
        searched = found.upperBound..<body.endIndex
    }
    check(delimiters == 3, "\(delimiters) boundaries for 2 parts")
    let headLines = String(decoding: body.prefix(200 + name.utf8.count * 3 + filename.utf8.count * 3), as: UTF8.self)
        .components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
    check(headLines.count == 3, "part head \(headLines) for \(name.debugDescription), \(filename.debugDescription)")
}
