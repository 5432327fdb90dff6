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
    if secret.count >= 4, !Redaction.mark.contains(secret), !secret.contains(where: { "REDACT".contains($0) }) {
        check(!scrubbed.contains(secret), "\(secret.debugDescription) left in \(scrubbed.debugDescription)")
    }
    let password = secret.filter { $0.isLetter || $0.isNumber }
    if password.count >= 4, !password.contains(where: { "REDACT".contains($0) }) {
        let url = "see http://user:\(password)@host/path " + text.filter { $0.isASCII && !$0.isLetter && !$0.isNumber }
        check(!Redaction.scrub(url).contains(password), "password left in \(Redaction.scrub(url).debugDescription)")
    }
}
