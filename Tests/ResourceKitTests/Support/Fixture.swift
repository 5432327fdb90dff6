import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stub server every test resource lives on.
let baseURL = URL(string: "https://api.example.com")!

/// Bytes of a file in `Fixtures/`.
func fixture(_ name: String) throws -> Data {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    return try url.regularFileContents()  // as the library reads a file: a regular one, never waiting
}

/// An HTTP response for `url` with the given status and header fields.
func httpResponse(
    _ statusCode: Int,
    url: URL = baseURL,
    headers: [String: String] = ["Content-Type": "application/json"]
) throws -> HTTPURLResponse {
    try #require(HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers))
}

/// Runs `body` with a new, empty temporary directory, and removes it afterwards.
func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("ResourceKitTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
}
