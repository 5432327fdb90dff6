import Foundation
import Hummingbird
import MultipartKit

extension Router {
    /// Adds the routes for form bodies, decoded by parsers that are not ResourceKit's, and for pagination.
    ///
    /// - `POST /forms/multipart`: parsed by vapor/multipart-kit with the boundary of the request's `Content-Type`;
    ///   answers `[{"name": …, "filename": …, "contentType": …, "body": <base64>}]`, one element per part.
    /// - `POST /forms/urlencoded`: decoded by Hummingbird's `URLEncodedFormDecoder`; answers the fields as a JSON
    ///   object.
    /// - `GET /pages?page=N&count=C`: the numbers of page N, two a page up to C, with a `Link` to the next page.
    /// - `GET /feed?after=N&count=C`: the two numbers after N, up to C, and the cursor of the next page, in the body:
    ///   `{"numbers": [3, 4], "next": "4"}`, without `next` on the last page.
    public func addTransferRoutes() {
        post("/forms/multipart") { request, context in
            let contentType = request.headers[.contentType] ?? ""
            guard
                let boundary = contentType.split(separator: ";").lazy
                    .map({ $0.trimmingCharacters(in: .whitespaces) })
                    .first(where: { $0.hasPrefix("boundary=") })?.dropFirst("boundary=".count)
            else { throw APIError(status: .badRequest, code: "no_boundary", reason: "No boundary in \(contentType)") }
            let body = try await request.body.collect(upTo: context.maxUploadSize)
            return try Response.json(try FormPart.parse(Array(body.readableBytesView), boundary: String(boundary)))
        }
        get("/pages") { request, _ in
            // Pages of 2 numbers up to `count` (default 5): `?page=N`, with a `Link` to the next one, relative.
            let page = request.uri.queryParameters["page"].flatMap { Int($0) } ?? 1
            let count = request.uri.queryParameters["count"].flatMap { Int($0) } ?? 5
            let numbers = Array(((page - 1) * 2 + 1)...min(page * 2, count))
            var headers: HTTPFields = [:]
            if page * 2 < count {
                headers[linkHeader] =
                    #"</pages?page=\#(page + 1)&count=\#(count)>; rel="next", </pages?count=\#(count)>; rel="first""#
            }
            return try Response.json(numbers, headers: headers)
        }
        get("/feed") { request, _ in
            let after = request.uri.queryParameters["after"].flatMap { Int($0) } ?? 0
            let count = request.uri.queryParameters["count"].flatMap { Int($0) } ?? 5
            guard after >= 0, after < count else {
                throw APIError(status: .badRequest, code: "bad_cursor", reason: "No page after \(after)")
            }
            let numbers = Array((after + 1)...min(after + 2, count))
            let next = numbers.last.flatMap { $0 < count ? "\($0)" : nil }
            return try Response.json(FeedPage(numbers: numbers, next: next))
        }
        post("/forms/urlencoded") { request, context in
            let body = try await request.body.collect(upTo: context.maxUploadSize)
            let fields = try URLEncodedFormDecoder().decode(
                [String: String].self, from: String(decoding: body.readableBytesView, as: UTF8.self))
            return try Response.json(fields)
        }
    }
}

/// A page as `/feed` answers it.
struct FeedPage: Codable, Sendable {
    var numbers: [Int]
    var next: String?
}

/// A part as `/forms/multipart` answers it.
struct FormPart: Codable, Sendable {
    var name: String?
    var filename: String?
    var contentType: String?
    var body: Data

    /// The parts of a `multipart/form-data` body, as multipart-kit's parser reads them.
    static func parse(_ bytes: [UInt8], boundary: String) throws -> [FormPart] {
        let parser = MultipartParser(boundary: boundary)
        var parts: [FormPart] = []
        var headers: [(String, String)] = []
        var body = Data()
        parser.onHeader = { name, value in headers.append((name, value)) }
        parser.onBody = { buffer in body.append(contentsOf: buffer.readableBytesView) }
        parser.onPartComplete = {
            let disposition = headers.first { $0.0.lowercased() == "content-disposition" }?.1 ?? ""
            parts.append(
                FormPart(
                    name: parameter("name", in: disposition), filename: parameter("filename", in: disposition),
                    contentType: headers.first { $0.0.lowercased() == "content-type" }?.1, body: body))
            (headers, body) = ([], Data())
        }
        try parser.execute(bytes)
        return parts
    }

    /// The value of the quoted parameter `name` in a `Content-Disposition` value, as a server reads it.
    private static func parameter(_ name: String, in disposition: String) -> String? {
        guard let start = disposition.range(of: "; \(name)=\"") else { return nil }
        let rest = disposition[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}

/// The `Link` header field's name. (Hummingbird re-exports `HTTPFields` but not `HTTPField`.)
private let linkHeader = HTTPFields.Element.Name("Link")!
