import Foundation

extension URL {
    /// The size of the local regular file this URL names (a symbolic link is followed), for a body read from it.
    ///
    /// A directory, a device or a pipe has no size to announce, and reading one would send less or more than it, or
    /// wait forever (`/dev/zero`, a FIFO).
    ///
    /// - Throws: `URLError(.unsupportedURL)` for a URL that isn't a `file:` URL, `.fileDoesNotExist` for a file that
    ///   can't be read, `.fileIsDirectory` for a directory, and `.cannotOpenFile` for anything else that isn't a
    ///   regular file.
    func regularFileSize() throws(URLError) -> Int64 {
        guard isFileURL else {
            throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "A file to send needs a file: URL."])
        }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: resolvingSymlinksInPath().path)
        } catch {
            throw URLError(
                .fileDoesNotExist,
                userInfo: [NSLocalizedDescriptionKey: "The file to send can't be read.", NSUnderlyingErrorKey: error])
        }
        switch attributes[.type] as? FileAttributeType {
        case .typeRegular?:
            if let size = attributes[.size] as? NSNumber { return size.int64Value }
            throw URLError(.cannotOpenFile, userInfo: [NSLocalizedDescriptionKey: "The file to send has no size."])
        case .typeDirectory?:
            throw URLError(
                .fileIsDirectory, userInfo: [NSLocalizedDescriptionKey: "A file to send can't be a directory."])
        default:
            throw URLError(
                .cannotOpenFile, userInfo: [NSLocalizedDescriptionKey: "A file to send must be a regular file."])
        }
    }
}
