#if OpenAPI
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime
    import ResourceKit

    extension Resource where A == Void {
        /// The resource that sends `request`, whose path and query follow `baseURL`'s path, with `body` collected
        /// whole: what a generated client's request becomes in ``ResourceKit/Webservice``'s `send`.
        ///
        /// Every status is accepted: the client decides what one means.
        ///
        /// - Throws: ``ResourceKit/WebserviceError/Reason/encoding(_:)`` before anything is sent, for a URL that
        ///   can't be made, a body over 64 MiB, or a method ``ResourceKit/HTTPMethod`` doesn't have (or a `GET` or
        ///   `DELETE` with a body).
        init(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws(WebserviceError) {
            let url = try Self.url(of: request, under: baseURL)
            var bytes: Data?
            if let body {
                do {
                    bytes = try await Data(collecting: body, upTo: Webservice.streamedBodyLimit)
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

        /// `baseURL` with `request`'s path appended to its path, and `request`'s query as the query; percent-encoding
        /// kept as the client wrote it.
        private static func url(of request: HTTPRequest, under baseURL: URL) throws(WebserviceError) -> URL {
            let path = request.path ?? ""
            guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
                let target = URLComponents(string: path)
            else { throw unsendable("path", "The request's path is not a valid URL path; it was not sent.") }
            var prefix = components.percentEncodedPath
            if prefix.utf8.last == UInt8(ascii: "/"), target.percentEncodedPath.utf8.first == UInt8(ascii: "/") {
                prefix.removeLast()
            }
            components.percentEncodedPath = prefix + target.percentEncodedPath
            components.percentEncodedQuery = target.percentEncodedQuery
            guard let url = components.url else {
                throw unsendable("path", "The request's path is not a valid URL path; it was not sent.")
            }
            return url
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
