import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Request.cURLDescription` read back by a POSIX shell: the first byte says whether combining marks follow the
/// quotes, backslashes and separators of the texts, then come lines for the method, the URL's path, a header name
/// and three header values (for the name, `Content-Type` and `User-Agent`), and the rest is the body.
///
/// Invariant: the shell words of the command are exactly `curl`, the method, the URL, a `-H` word for each header
/// field and the body, each as the description means to show it (redacted as the library redacts it), and nothing
/// outside the words (no operator, expansion or unclosed quote) that a shell would run.
func fuzzCURLCommand(_ input: inout FuzzInput) {
    let marked = input.byte() & 1 == 1
    let method = withCombiningMarks(input.line(), marked)
    let path = withCombiningMarks(input.line(), marked)
    let name = input.line()
    let values = (0..<3).map { _ in withCombiningMarks(input.line(), marked) }
    let body = input.rest
    let url =
        HTTPSyntax.percentEncoded(path).flatMap { URL(string: "https://api.example.com/'\($0)?q='\($0)") }
        ?? URL(string: "https://api.example.com/")!
    var request = Request(url: url)
    request.method = method.isEmpty ? "GET" : method
    for (name, value) in zip([name, "Content-Type", "User-Agent"], values)
    where !name.isEmpty && validHeaderName(name) && isValidHeaderValue(value) {
        request.setValue(value, forHTTPHeaderField: name)
    }
    request.body = body.isEmpty ? nil : RequestBody(body)
    let command = request.cURLDescription
    guard let words = shellWords(Array(command.utf8)) else {
        return check(false, "a shell would run more than curl: \(command.debugDescription)")
    }
    let expected = shownWords(of: request)
    check(words == expected, "words \(words) of \(command.debugDescription), expected \(expected)")
}

/// Whether `name` can name a header field: an HTTP token.
private func validHeaderName(_ name: String) -> Bool {
    name.utf8.allSatisfy { byte in
        (0x21...0x7E).contains(byte) && !"\"(),/:;<=>?@[\\]{}".utf8.contains(byte)
    }
}

/// The words `curl` should get for `request`: its method, its URL, each header field and the body, as
/// `cURLDescription` means to show them, redacted by the library (whose redaction other targets fuzz).
private func shownWords(of request: Request) -> [[UInt8]] {
    let secrets = request.secrets
    var words = ["curl"]
    switch request.method {
    case "GET": break
    case "HEAD": words.append("--head")
    case let method: words += ["-X", method]
    }
    words.append(Redaction.redacted(request.url, removing: secrets)?.absoluteString ?? "")
    for (name, value) in request.headerFields.dictionary.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
        words += ["-H", "\(name): \(isSafeHeader(name) ? Redaction.scrub(value, removing: secrets) : Redaction.mark)"]
    }
    var shown = words.map { Array($0.utf8) }
    if let body = try? request.body?.bytes(), !body.isEmpty {
        let isText =
            String(data: body, encoding: .utf8).map { text in
                !text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }
            } ?? false
        if isText {
            // The description redacts a body with a `&` in front, then drops that byte.
            let redacted = Redaction.scrub("&" + String(decoding: body, as: UTF8.self), removing: secrets)
            shown += [Array("--data-binary".utf8), Array(redacted.utf8.dropFirst())]
        } else {
            shown += [Array("--data-binary".utf8), Array("@body".utf8)]
        }
    }
    return shown
}

/// The words a POSIX shell makes of `command`, byte for byte, or `nil` when it holds anything but words: an unquoted
/// operator (`;`, `&`, `|`, `<`, `>`, `(`, `)`), an expansion (`$`, a backquote, `*`, `?`, `[`, `~`, `{`), a `!`, or
/// an unclosed quote.
///
/// It reads single quotes (everything literal up to the next `'`), double quotes (`\` escapes `$`, a backquote, `"`,
/// `\` and a line break; `$` and a backquote inside are expansions), backslashes outside quotes (a line break after
/// one joins the lines), blanks and line breaks between words, and a comment from a `#` that starts a word.
func shellWords(_ command: [UInt8]) -> [[UInt8]]? {
    var words: [[UInt8]] = []
    var word: [UInt8] = []
    // Whether a word has started: `''` is an empty word, where a blank is none.
    var inWord = false
    var index = 0
    while index < command.count {
        let byte = command[index]
        switch UnicodeScalar(byte) {
        case " ", "\t", "\n":
            if inWord { words.append(word) }
            (word, inWord) = ([], false)
            index += 1
        case "\\":
            guard index + 1 < command.count else { return nil }
            if command[index + 1] != UInt8(ascii: "\n") {
                word.append(command[index + 1])
                inWord = true
            }
            index += 2
        case "'":
            guard let close = command[(index + 1)...].firstIndex(of: UInt8(ascii: "'")) else { return nil }
            word += command[(index + 1)..<close]
            inWord = true
            index = close + 1
        case "\"":
            inWord = true
            index += 1
            while true {
                guard index < command.count else { return nil }
                let inner = command[index]
                if inner == UInt8(ascii: "\"") { break }
                if inner == UInt8(ascii: "$") || inner == UInt8(ascii: "`") { return nil }
                if inner == UInt8(ascii: "\\"), index + 1 < command.count, "$`\"\\\n".utf8.contains(command[index + 1])
                {
                    if command[index + 1] != UInt8(ascii: "\n") { word.append(command[index + 1]) }
                    index += 2
                } else {
                    word.append(inner)
                    index += 1
                }
            }
            index += 1
        case "#" where !inWord:
            while index < command.count, command[index] != UInt8(ascii: "\n") { index += 1 }
        case ";", "&", "|", "<", ">", "(", ")", "$", "`", "*", "?", "[", "~", "{", "!":
            return nil
        default:
            word.append(byte)
            inWord = true
            index += 1
        }
    }
    if inWord { words.append(word) }
    return words
}
