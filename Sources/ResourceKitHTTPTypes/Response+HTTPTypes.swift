#if HTTPTypes
    import Foundation
    import ResourceKitCore
    import HTTPTypes

    extension HTTPResponse {
        /// The status and header fields of `response`, in the order they arrived; `nil` for a status code outside
        /// `0...999`, which `HTTPResponse` can't hold.
        ///
        /// A field whose name HTTPTypes rejects, and any field past the 65 534th, is left out; a value's invalid bytes
        /// become spaces. See <doc:UsingOpenAPI>.
        ///
        /// ```swift
        /// let head = HTTPResponse(response)
        /// ```
        public init?(_ response: Response) {
            guard (0...999).contains(response.statusCode) else { return nil }
            var fields = HTTPFields()
            for field in response.headerFields where fields.count < Self.maxFieldCount {
                guard let name = HTTPField.Name(field.name) else { continue }
                fields.append(HTTPField(name: name, value: field.value))
            }
            self.init(status: Status(code: response.statusCode), headerFields: fields)
        }

        /// The most fields an `HTTPFields` holds: it traps on the 65 535th.
        static let maxFieldCount = Int(UInt16.max) - 1
    }

    extension Response {
        /// A response with the status and header fields of `response`, in their order, and `body`, from `url`.
        ///
        /// ```swift
        /// let response = Response(head, body: bytes, url: request.url)
        /// ```
        public init(_ response: HTTPResponse, body: Data = Data(), url: URL? = nil) {
            self.init(
                statusCode: response.status.code,
                headerFields: response.headerFields.map { HeaderField(name: $0.name.rawName, value: $0.value) },
                body: body,
                url: url)
        }
    }
#endif
