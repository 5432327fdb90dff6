import Foundation

extension URLError {
    /// This error with the code Apple's `URLSession` uses, where Linux's reports `.unknown` with curl's message.
    var standardized: URLError {
        guard code == .unknown, let message = userInfo[NSLocalizedDescriptionKey] as? String else { return self }
        if message.contains("Unrecognized or bad HTTP Content or Transfer-Encoding") {
            let reason = "The response's Content-Encoding is not one URLSession decodes (curl: \(message))."
            return URLError(
                .cannotDecodeContentData, userInfo: userInfo.merging([NSLocalizedDescriptionKey: reason]) { $1 })
        }
        return self
    }
}
