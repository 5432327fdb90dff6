import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// The `multipart/form-data` encoding (RFC 7578) of ``RequestBody/multipart(_:)``.
///
/// Names and file names keep their UTF-8 characters; `"`, CR and LF in them are percent-encoded, as browsers do
/// (HTML's form submission algorithm), since RFC 7578 forbids RFC 5987's `filename*`.
enum Multipart {
    /// The body of `parts` and the `Content-Type` that names its boundary, a random one that occurs in none of them.
    ///
    /// - Parameters:
    ///   - parts: The form's parts, in order.
    ///   - random: The source of the boundary's random bits.
    /// - Returns: The body, and a value such as `multipart/form-data; boundary=ResourceKit-…`.
    /// - Throws: ``WebserviceError/Reason/encoding(_:)`` for a content type that isn't a valid header value, a file URL that
    ///   isn't a `file:` URL, or a file that can't be read.
    static func encoded(
        _ parts: [RequestBody.Part],
        random: () -> UInt64
    ) throws(WebserviceError) -> (body: Data, contentType: String) {
        var contents: [Data] = []
        for part in parts {
            if let contentType = part.contentType {
                try HeaderField(name: "Content-Type", value: contentType).validate()
            }
            contents.append(try part.bytes())
        }
        var boundary = ""
        // A random boundary collides with content only by design of the content; then another is drawn.
        repeat {
            boundary = "ResourceKit-" + String(random(), radix: 16) + String(random(), radix: 16)
        } while contents.contains(where: { $0.range(of: Data(boundary.utf8)) != nil })
        var body = Data()
        for (part, content) in zip(parts, contents) {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(escaped(part.name))\""
            if let filename = part.filename { head += "; filename=\"\(escaped(filename))\"" }
            if let contentType = part.contentType { head += "\r\nContent-Type: \(contentType)" }
            body.append(Data((head + "\r\n\r\n").utf8))
            body.append(content)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return (body, "multipart/form-data; boundary=\(boundary)")
    }

    /// A name or file name for a quoted parameter: `"`, CR and LF percent-encoded, everything else as it is.
    ///
    /// Matched on Unicode scalars, as a form parser reads bytes: a `"` followed by a combining mark is one `Character`,
    /// which `replacingOccurrences(of: "\"")` would leave as it is, ending the parameter early.
    private static func escaped(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped.append(contentsOf: "%22".unicodeScalars)
            case "\r": escaped.append(contentsOf: "%0D".unicodeScalars)
            case "\n": escaped.append(contentsOf: "%0A".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
