import Foundation

/// Splitting the `Set-Cookie` value `HTTPURLResponse` joined from several fields (`HTTPSyntax.cookies(joinedIn:)`).
///
/// The first byte picks the check. Even: the rest is any joined value. Odd: each line of the rest becomes a cookie,
/// `name=value; Expires=<date with a comma>; Path=/<line>`, with the name made of the line's token bytes and the
/// value of its cookie octets (RFC 6265: no comma, semicolon, space, quote or backslash).
///
/// Invariants: no cookie has spaces or tabs around it; splitting the cookies joined again by `, ` gives the same
/// cookies; and cookies as RFC 6265 writes them, joined by `, `, split into exactly those cookies.
func fuzzSetCookie(_ input: inout FuzzInput) {
    if input.byte() & 1 == 0 {
        let cookies = HTTPSyntax.cookies(joinedIn: String(decoding: input.rest, as: UTF8.self))
        for cookie in cookies {
            let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            check(!(cookie.utf8.first.map(isSpace) ?? false), "a space before \(cookie.debugDescription)")
            check(!(cookie.utf8.last.map(isSpace) ?? false), "a space after \(cookie.debugDescription)")
        }
        let again = HTTPSyntax.cookies(joinedIn: cookies.joined(separator: ", "))
        check(again == cookies, "\(cookies) split again as \(again)")
        return
    }
    var cookies: [String] = []
    let rest = input.rest
    for lineBytes in rest.isEmpty ? [] : rest.split(separator: 0x0A, omittingEmptySubsequences: false) {
        let line = Array(lineBytes)
        let name = line.filter(isTokenByte)
        let value = line.filter { (0x21...0x7E).contains($0) && !Array(",;\"\\".utf8).contains($0) }
        let path = line.filter { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") }
        cookies.append(
            String(decoding: name.isEmpty ? Array("c".utf8) : name, as: UTF8.self) + "="
                + String(decoding: value, as: UTF8.self) + "; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/"
                + String(decoding: path, as: UTF8.self))
    }
    let split = HTTPSyntax.cookies(joinedIn: cookies.joined(separator: ", "))
    check(split == (cookies.isEmpty ? [""] : cookies), "\(cookies) split as \(split)")
}
