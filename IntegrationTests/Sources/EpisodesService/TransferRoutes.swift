import Foundation
import Hummingbird
import MultipartKit

extension Router {
    /// Adds the routes for form bodies, decoded by parsers that are not ResourceKit's, and for pagination.
    ///
    /// - `POST /forms/multipart`: parsed by vapor/multipart-kit with the boundary of the request's `Content-Type`;
    ///   answers `[{"name": …, "filename": …, "contentType": …, "parameters": ["name", …], "body": <base64>}]`, one
    ///   element per part, with the names of its `Content-Disposition` parameters.
    /// - `POST /forms/urlencoded`: decoded by Hummingbird's `URLEncodedFormDecoder`; answers the fields as a JSON
    ///   object.
    /// - `GET /pages?page=N&count=C`: the numbers of page N, two a page up to C, with a `Link` to the next page.
    /// - `GET /pages/loop`, any query: `[n]`, n the requests it has served, with `Link: </pages/loop#n>; rel="next"`:
    ///   a new link each time, always to the same request, since the fragment is never sent.
    /// - `GET /feed?after=N&count=C`: the two numbers after N, up to C, and the cursor of the next page, in the body:
    ///   `{"numbers": [3, 4], "next": "4"}`, without `next` on the last page.
    public func addTransferRoutes() {
        let loop = FaultMeter()
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
        get("/pages/loop") { _, _ in
            let served = await loop.serve()
            return try Response.json([served], headers: [linkHeader: #"</pages/loop#\#(served)>; rel="next""#])
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
    /// The names of the `Content-Disposition` parameters, in order: `["name", "filename"]` for a file.
    var parameters: [String]
    var body: Data

    /// The parts of a `multipart/form-data` body, as multipart-kit's parser reads them, with their `Content-Disposition`
    /// parameters read on bytes: multipart-kit's own reader splits the value at every `;`, in quotes too.
    static func parse(_ bytes: [UInt8], boundary: String) throws -> [FormPart] {
        let parser = MultipartParser(boundary: boundary)
        var parts: [FormPart] = []
        var headers: [(String, String)] = []
        var body = Data()
        parser.onHeader = { name, value in headers.append((name, value)) }
        parser.onBody = { buffer in body.append(contentsOf: buffer.readableBytesView) }
        parser.onPartComplete = {
            let disposition = headers.first { $0.0.lowercased() == "content-disposition" }?.1 ?? ""
            let parameters = Self.parameters(of: disposition)
            let value = { (name: String) in parameters.first { $0.name == name }?.value }
            parts.append(
                FormPart(
                    name: value("name"), filename: value("filename"),
                    contentType: headers.first { $0.0.lowercased() == "content-type" }?.1,
                    parameters: parameters.map(\.name), body: body))
            (headers, body) = ([], Data())
        }
        try parser.execute(bytes)
        return parts
    }

    /// The parameters of a `Content-Disposition` value, names in lowercase, as a server reads them: on bytes, a quoted
    /// value ending at the next `"` byte, whatever follows it, and the next parameter after the next `;`.
    private static func parameters(of disposition: String) -> [(name: String, value: String)] {
        let (semicolon, equals, quote) = (UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "\""))
        let text = { (bytes: ArraySlice<UInt8>) in String(decoding: bytes, as: UTF8.self) }
        var parameters: [(name: String, value: String)] = []
        var rest = Array(disposition.utf8)[...]
        while let start = rest.firstIndex(of: semicolon) {  // the first one ends the disposition type
            rest = rest[(start + 1)...]
            let end = rest.firstIndex(of: semicolon) ?? rest.endIndex
            guard let split = rest[..<end].firstIndex(of: equals) else { continue }
            let name = text(rest[..<split]).trimmingCharacters(in: .whitespaces).lowercased()
            let value = rest[(split + 1)...].drop { $0 == UInt8(ascii: " ") }
            guard value.first == quote else {
                parameters.append((name, text(value[..<end]).trimmingCharacters(in: .whitespaces)))
                rest = rest[end...]
                continue
            }
            let quoted = value.dropFirst()
            let closing = quoted.firstIndex(of: quote) ?? quoted.endIndex
            parameters.append((name, text(quoted[..<closing])))
            rest = rest[closing...]
        }
        return parameters
    }
}

/// The `Link` header field's name. (Hummingbird re-exports `HTTPFields` but not `HTTPField`.)
let linkHeader = HTTPFields.Element.Name("Link")!
