import Foundation

extension Data {
    /// Whether these bytes contain the UTF-8 bytes of `text`: a match on bytes, as the house rules ask, since for
    /// Swift `"tok\u{301}".contains("tok")` is false.
    func contains(bytesOf text: String) -> Bool {
        range(of: Data(text.utf8)) != nil
    }
}

extension String {
    /// Whether this text's UTF-8 bytes contain those of `text`; see ``Foundation/Data/contains(bytesOf:)``.
    func contains(bytesOf text: String) -> Bool {
        Data(utf8).contains(bytesOf: text)
    }
}
