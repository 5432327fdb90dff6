#if OpenAPI
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime
    import ResourceKit
    internal import ResourceKitSupport

    extension Resource where A == Void {
        /// The resource that sends `request`, whose path and query follow `baseURL`'s path, with `body` collected
        /// whole: what a generated client's request becomes in ``ResourceKit/Webservice``'s `send`.
        ///
        /// Every status is accepted: the client decides what one means.
        ///
        /// - Throws: ``ResourceKit/WebserviceError/Reason/encoding(_:)`` before anything is sent, for a URL that
        ///   can't be made, a body over 64 MiB, or a method ``ResourceKit/HTTPMethod`` doesn't have (or a `GET` or
        ///   `DELETE` with a body).
        /// The most bytes of a request body that arrives as a stream collected to be sent.
        static let streamedBodyLimit = 64 << 20

        init(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws(WebserviceError) {
            let url = try Self.url(of: request, under: baseURL)
            var bytes: Data?
            if let body {
                do {
                    bytes = try await Data(collecting: body, upTo: Self.streamedBodyLimit)
                } catch {
                    throw WebserviceError(.encoding(error))
                }
            }
            let method: HTTPMethod<Data>
            switch request.method {
            case .get where bytes?.isEmpty ?? true: method = .get
            case .delete where bytes?.isEmpty ?? true: method = .delete
            case .post: method = .post(bytes ?? Data())
            case .put: method = .put(bytes ?? Data())
            case .patch: method = .patch(bytes ?? Data())
            default:
                throw Self.unsendable(
                    request.method.rawValue,
                    "ResourceKit sends GET, POST, PUT, PATCH and DELETE, GET and DELETE without a body; the "
                        + "\(request.method.rawValue) request was not sent.")
            }
            self.init(url: url, method: method, headers: Self.headers(of: request.headerFields), parse: { _ in })
            acceptableStatusCodes = Int.min..<Int.max
        }

        /// `baseURL` with `request`'s path appended to its path as it is, and `request`'s query as the query;
        /// percent-encoding kept as the client wrote it, but for a whole `.` or `..` segment, encoded (`%2E%2E`).
        ///
        /// The path is never read as a URL of its own: `//users/42` would be the host `users` and the path `/42`. A
        /// generated client leaves a path parameter's dots unencoded, and a dot segment would be removed by one
        /// transport (curl, behind `URLSession` on Linux, makes `/users/42/sessions/..` `/users/42/`) and sent by the
        /// other: encoded, it reaches the server as the same bytes through both (a server that decodes before it
        /// normalizes may still read it as a step up; see <doc:UsingOpenAPI>).
        private static func url(of request: HTTPRequest, under baseURL: URL) throws(WebserviceError) -> URL {
            let target = Array((request.path ?? "").utf8)
            let queryStart = target.firstIndex(of: UInt8(ascii: "?"))
            let path = target[..<(queryStart ?? target.endIndex)]
            let query = queryStart.map { target[($0 + 1)...] }
            guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
                isEncoded(path, allowing: "/"), query.map({ isEncoded($0, allowing: "/?") }) ?? true
            else { throw unsendable("path", "The request's path is not a valid URL path; it was not sent.") }
            var prefix = components.percentEncodedPath
            if prefix.utf8.last == UInt8(ascii: "/"), path.first == UInt8(ascii: "/") {
                prefix.removeLast()
            }
            components.percentEncodedPath =
                prefix + HTTPSyntax.encodingDotSegments(String(decoding: path, as: UTF8.self))
            components.percentEncodedQuery = query.map { String(decoding: $0, as: UTF8.self) }
            guard let url = components.url else {
                throw unsendable("path", "The request's path is not a valid URL path; it was not sent.")
            }
            return url
        }

        /// The digits of a percent-encoded byte.
        private static let hexDigits = Set("0123456789ABCDEFabcdef".utf8)

        /// The characters of a path segment besides `%`: unreserved, sub-delimiters, `:` and `@`.
        private static let pathCharacters = hexDigits.union(
            "GHIJKLMNOPQRSTUVWXYZghijklmnopqrstuvwxyz-._~!$&'()*+,;=:@".utf8)

        /// Whether `bytes` are a percent-encoded path segment's characters (RFC 3986's `pchar`: unreserved,
        /// sub-delimiters, `:`, `@` and `%` with two hex digits) or one of `extra`.
        private static func isEncoded(_ bytes: ArraySlice<UInt8>, allowing extra: String) -> Bool {
            let allowed = pathCharacters.union(extra.utf8)
            var index = bytes.startIndex
            while index < bytes.endIndex {
                if bytes[index] == UInt8(ascii: "%") {
                    guard index + 2 < bytes.endIndex, hexDigits.contains(bytes[index + 1]),
                        hexDigits.contains(bytes[index + 2])
                    else { return false }
                    index += 3
                } else {
                    guard allowed.contains(bytes[index]) else { return false }
                    index += 1
                }
            }
            return true
        }

        /// `fields` as a resource's header fields: a name's repeated values joined as HTTP allows, by `; ` for
        /// `Cookie` and `, ` for the others.
        private static func headers(of fields: HTTPFields) -> [String: String] {
            var headers: [String: String] = [:]
            var names: Set<HTTPField.Name> = []
            for field in fields where names.insert(field.name).inserted {
                headers[field.name.rawName] = fields[field.name]
            }
            return headers
        }

        /// The error for a request that can't be sent: `reason`, about `value`.
        private static func unsendable(_ value: String, _ reason: String) -> WebserviceError {
            WebserviceError(
                .encoding(EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: reason))))
        }
    }
#endif
