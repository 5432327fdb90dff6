import Dispatch
import Foundation

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

    /// Reads the file a `GET` `request` names; other methods and URLs throw `URLError(.unsupportedURL)`.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await data(for: request, maxBodySize: nil)
    }

    /// Reads the file `request` names, unless it is larger than the load's ``LoadContext/maxBodySize``.
    public func send(_ request: URLRequest, context: LoadContext) async throws -> (Response, ResponseBody) {
        try await sendWhole(request, context: context) { request in
            try await data(for: request, maxBodySize: context.maxBodySize)
        }
    }

    private func data(for request: URLRequest, maxBodySize: Int?) async throws -> (Data, URLResponse) {
        guard let url = request.url, url.isFileURL else {
            throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "Only file URLs are read."])
        }
        let method = request.httpMethod ?? "GET"
        guard method == "GET" else {
            let reason = "A file URL can only be loaded with GET; \(method) would change the file."
            throw URLError(
                .unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason, NSURLErrorFailingURLErrorKey: url])
        }
        if let maxBodySize, let file = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]),
            file.isRegularFile == true, let size = file.fileSize, size > maxBodySize
        {
            throw WebserviceError(.bodyTooLarge(limit: maxBodySize))
        }
        let data = try await Self.contents(of: url)
        var headers = ["Content-Length": String(data.count)]
        headers["Content-Type"] = Self.contentTypes[url.pathExtension.lowercased()]
        guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        else {
            throw URLError(.cannotParseResponse, userInfo: [NSURLErrorFailingURLErrorKey: url])
        }
        return (data, response)
    }

    /// Reads the file at `url` on a global Dispatch queue.
    private static func contents(of url: URL) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try Data(contentsOf: url) })
            }
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
