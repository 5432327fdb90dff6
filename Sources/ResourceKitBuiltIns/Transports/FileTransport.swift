import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that reads `file:` URLs from disk and answers `GET` requests with the file's contents and a `200`
/// response, as a server would: the explicit opt-in for bundled JSON and fixtures, as no other transport reads files.
///
/// ```swift
/// let episodes = try await Webservice(transport: FileTransport()).load(Resource<[Episode]>(get: fileURL))
/// ```
public struct FileTransport: Transport {
    /// Creates a transport that reads `file:` URLs.
    public init() {}

    /// Reads the file a `GET` `request` names, unless it is larger than the load's ``LoadContext/maxBodySize``; other
    /// methods and URLs throw `URLError(.unsupportedURL)`.
    public func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        let url = request.url
        guard url.isFileURL else {
            throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "Only file URLs are read."])
        }
        let method = request.method
        guard method == "GET" else {
            let reason = "A file URL can only be loaded with GET; \(method) would change the file."
            throw URLError(
                .unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason, NSURLErrorFailingURLErrorKey: url])
        }
        let maxBodySize = context.maxBodySize
        let data = try await offCooperativePool { try Self.contents(of: url, maxBodySize: maxBodySize) }
        var headers = ["Content-Length": String(data.count)]
        headers["Content-Type"] = Self.contentTypes[url.pathExtension.lowercased()]
        guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        else {
            throw URLError(.cannotParseResponse, userInfo: [NSURLErrorFailingURLErrorKey: url])
        }
        return (Response(response, body: Data()), ResponseBody(data))
    }

    /// Reads the regular file at `url` (a symbolic link is followed), as every file is opened (`SafeFile`): a FIFO or
    /// a device fails at once rather than block.
    ///
    /// - Throws: ``WebserviceError/Reason/bodyTooLarge(limit:)`` for a file over `maxBodySize`, or a `CocoaError`.
    private static func contents(of url: URL, maxBodySize: Int?) throws -> Data {
        do throws(SafeFile.Refusal) {
            return try SafeFile.contents(of: url.path, followingLinks: true, owner: .anyone, limit: maxBodySize ?? .max)
        } catch .tooLarge {
            throw WebserviceError(.bodyTooLarge(limit: maxBodySize ?? .max))
        } catch {
            let (code, reason): (CocoaError.Code, String) =
                switch error {
                case .missing: (.fileReadNoSuchFile, "There is no file at \(url.path).")
                case .directory: (.fileReadUnknown, "\(url.path) is a directory, not a file.")
                case .notRegular: (.fileReadUnknown, "\(url.path) is not a regular file.")
                default: (.fileReadUnknown, "The file at \(url.path) can't be read.")
                }
            throw CocoaError(code, userInfo: [NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey: reason])
        }
    }

    /// Media types for common file extensions, in lowercase.
    private static let contentTypes = [
        "json": "application/json",
        "txt": "text/plain",
        "html": "text/html",
        "htm": "text/html",
        "csv": "text/csv",
        "xml": "application/xml",
        "plist": "application/x-plist",
        "pdf": "application/pdf",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "svg": "image/svg+xml",
    ]
}
