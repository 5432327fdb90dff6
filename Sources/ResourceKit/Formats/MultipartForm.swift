import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields and files, encoded synchronously with a boundary that occurs
/// in none of the parts.
///
/// Names and file names keep their UTF-8 characters; `"`, CR and LF in them are percent-encoded, as browsers do
/// (HTML's form submission algorithm), since RFC 7578 forbids RFC 5987's `filename*`.
struct MultipartForm: Sendable {
    /// One field of the form.
    struct Part: Sendable {
        /// What a part carries.
        enum Content: Sendable {
            case data(Data)
            /// A file on disk, read when the form is encoded: reaching a local file is the caller's explicit choice.
            case file(URL)
        }

        var name: String
        var filename: String?
        var contentType: String?
        var content: Content

        /// A text field.
        static func field(_ name: String, _ value: String) -> Part {
            Part(name: name, content: .data(Data(value.utf8)))
        }

        /// A file's bytes, named `filename`.
        static func file(_ name: String, filename: String, contentType: String, data: Data) -> Part {
            Part(name: name, filename: filename, contentType: contentType, content: .data(data))
        }

        /// The file at `url`, named by its last path component unless `filename` is given.
        static func file(
            _ name: String,
            at url: URL,
            filename: String? = nil,
            contentType: String = "application/octet-stream"
        ) -> Part {
            Part(name: name, filename: filename ?? url.lastPathComponent, contentType: contentType, content: .file(url))
        }
    }

    var parts: [Part]

    /// The encoded body and the `Content-Type` that names its boundary.
    ///
    /// - Parameter random: The source of the boundary's random bits; yours in tests.
    /// - Returns: The body, and a value such as `multipart/form-data; boundary=ResourceKit-…`.
    /// - Throws: ``WebserviceError/encoding(_:)`` for a content type that isn't a valid header value, a file URL that
    ///   isn't a `file:` URL, or a file that can't be read.
    func encoded(
        random: () -> UInt64 = { UInt64.random(in: .min ... .max) }
    ) throws(WebserviceError) -> (body: Data, contentType: String) {
        var contents: [Data] = []
        for part in parts {
            if let contentType = part.contentType {
                try validateHeaderField(name: "Content-Type", value: contentType)
            }
            contents.append(try Self.bytes(of: part.content))
        }
        var boundary = ""
        // A random boundary collides with content only by design of the content; then another is drawn.
        repeat {
            boundary = "ResourceKit-" + String(random(), radix: 16) + String(random(), radix: 16)
        } while contents.contains(where: { $0.range(of: Data(boundary.utf8)) != nil })
        var body = Data()
        for (part, content) in zip(parts, contents) {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(part.name))\""
            if let filename = part.filename { head += "; filename=\"\(Self.escaped(filename))\"" }
            if let contentType = part.contentType { head += "\r\nContent-Type: \(contentType)" }
            body.append(Data((head + "\r\n\r\n").utf8))
            body.append(content)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return (body, "multipart/form-data; boundary=\(boundary)")
    }

    /// A name or file name for a quoted parameter: `"`, CR and LF percent-encoded, everything else as it is.
    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    private static func bytes(of content: Part.Content) throws(WebserviceError) -> Data {
        switch content {
        case .data(let data):
            return data
        case .file(let url):
            guard url.isFileURL else {
                throw .encoding(
                    URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "A file part needs a file: URL."]))
            }
            do {
                return try Data(contentsOf: url)
            } catch {
                throw .encoding(error)
            }
        }
    }
}
