import Foundation

/// The redaction scanner: the first line is a secret, the rest any text.
///
/// Invariants: scrubbing never crashes or hangs, gives valid text again, and leaves no password of a URL it builds
/// around the secret, nor the secret itself when passed as one to remove (unless the text left behind spells it out
/// through the redaction mark).
func fuzzRedaction(_ input: inout FuzzInput) {
    let secret = input.line()
    let text = String(decoding: input.rest, as: UTF8.self)
    let scrubbed = Redaction.scrub(text, removing: [secret])
    // On bytes: a secret followed by a combining mark is inside another `Character`, and must go all the same.
    if secret.unicodeScalars.count >= 4,
        !secret.unicodeScalars.contains(where: { "REDACT".unicodeScalars.contains($0) })
    {
        check(!containsBytes(scrubbed, secret), "\(secret.debugDescription) left in \(scrubbed.debugDescription)")
    }
    let password = String(
        secret.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil })
    if password.unicodeScalars.count >= 4,
        !password.unicodeScalars.contains(where: { "REDACT".unicodeScalars.contains($0) })
    {
        let url = "see http://user:\(password)@host/path " + text.filter { $0.isASCII && !$0.isLetter && !$0.isNumber }
        let redacted = Redaction.scrub(url)
        check(!containsBytes(redacted, password), "password left in \(redacted.debugDescription)")
    }
}
