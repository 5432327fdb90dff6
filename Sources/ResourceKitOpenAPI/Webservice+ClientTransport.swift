#if OpenAPI
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime
    import ResourceKit

    extension Webservice: ClientTransport {
        /// Sends a generated client's request as one load of this web service, and returns its response whatever its
        /// status: `Client(serverURL: url, transport: webservice)`.
        ///
        /// The load passes the web service's middleware, cache, limit and observer like any other, named
        /// `operationID` (``ResourceKit/LoadContext/name``); a failure is a ``ResourceKit/WebserviceError``, which the
        /// client wraps in its `ClientError`. The rules are in the article "Using ResourceKit with OpenAPI".
        ///
        /// ```swift
        /// let client = Client(serverURL: try Servers.Server1.url(), transport: Webservice())
        /// let episodes = try await client.listEpisodes().ok.body.json
        /// ```
        public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
            -> (HTTPResponse, HTTPBody?)
        {
            var resource = try await Resource<Void>(request, body: body, baseURL: baseURL)
            resource.name = operationID
            let response = try await response(for: resource)
            // The resource's receiver read the body whole.
            let body = response.body.data ?? Data()
            guard let head = HTTPResponse(response) else { throw WebserviceError(.nonHTTPResponse(body: body)) }
            return (head, HTTPBody(body))
        }
    }
#endif
