import Foundation
import ResourceKitCore
internal import ResourceKitSupport

extension RequestBody {
    /// One part of a ``RequestBody/multipart(_:)`` body: a text field, or a file's bytes with its name and type.
    ///
    /// See <doc:SendingForms>.
    ///
    /// ```swift
    /// let parts: [RequestBody.Part] = [
    ///     .field("title", "Holiday"),
    ///     .file("photo", filename: "beach.jpg", contentType: "image/jpeg", data: jpegData),
    /// ]
    /// ```
    public struct Part: Sendable {
        /// What a part carries.
        enum Content: Sendable {
            /// Bytes in memory.
            case data(Data)
            /// A local file, read when the body is encoded: reaching the disk is the caller's explicit choice.
            case file(URL)
        }

        /// The form field's name.
        var name: String
        /// The file name a file part is sent with; `nil` for a text field.
        var filename: String?
        /// The part's `Content-Type`; `nil` for a text field.
        var contentType: String?
        /// The part's bytes, or where to read them.
        var content: Content

        /// A text field, sent as UTF-8.
        ///
        /// ```swift
        /// let title = RequestBody.Part.field("title", "Holiday")
        /// ```
        public static func field(_ name: String, _ value: String) -> Part {
            Part(name: name, content: .data(Data(value.utf8)))
        }

        /// A file's bytes, sent as `filename` with `contentType`.
        ///
        /// ```swift
        /// let photo = RequestBody.Part.file("photo", filename: "beach.jpg", contentType: "image/jpeg", data: jpegData)
        /// ```
        public static func file(_ name: String, filename: String, contentType: String, data: Data) -> Part {
            Part(name: name, filename: filename, contentType: contentType, content: .data(data))
        }

        /// The local file at `fileURL`, read when the resource is created, sent as its last path component unless
        /// `filename` is given.
        ///
        /// Only a `file:` URL is read; any other throws ``WebserviceError/Reason/encoding(_:)`` when the resource is created,
        /// as an unreadable file does.
        ///
        /// ```swift
        /// let video = RequestBody.Part.file("video", at: movieFileURL, contentType: "video/mp4")
        /// ```
        public static func file(
            _ name: String,
            at fileURL: URL,
            filename: String? = nil,
            contentType: String = "application/octet-stream"
        ) -> Part {
            Part(
                name: name, filename: filename ?? fileURL.lastPathComponent, contentType: contentType,
                content: .file(fileURL))
        }

        /// The part's bytes: its data, or the file's contents.
        ///
        /// - Throws: ``WebserviceError/Reason/encoding(_:)`` for a URL that isn't a `file:` URL, or a file that isn't a regular
        ///   one or can't be read.
        func bytes() throws(WebserviceError) -> Data {
            switch content {
            case .data(let data):
                return data
            case .file(let url):
                guard url.isFileURL else {
                    let reason = "A multipart file part reads only a file: URL, not \(url.scheme ?? "this") one."
                    throw WebserviceError(
                        .encoding(URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason])))
                }
                do {
                    // Only a regular file: reading `/dev/zero` or a pipe would never end.
                    return try url.regularFileContents()
                } catch {
                    throw WebserviceError(.encoding(error))
                }
            }
        }
    }
}
