#if HTTPTypes
    import Foundation
    import HTTPTypes
    import ResourceKit

    /// swift-http-types' response head, which the article's file imports.
    public typealias HTTPResponse = HTTPTypes.HTTPResponse

    /// A request and the response it got, for the conversions.
    public let (request, response) = (
        Request(url: baseURL), Response(statusCode: 200, headers: ["Content-Type": "application/json"])
    )

    /// A response's body.
    public let bytes = Data("[]".utf8)
#endif

#if OpenAPI
    import Foundation
    import OpenAPIRuntime
    import ResourceKit
    import ResourceKitOpenAPI

    /// OpenAPIRuntime's error, which the article's file imports.
    public typealias ClientError = OpenAPIRuntime.ClientError

    /// The article's client, sending through the web service.
    public let client = Client(serverURL: baseURL, transport: webservice)

    /// The servers of the Episodes service's OpenAPI document, as swift-openapi-generator names them.
    public enum Servers {
        /// The first server.
        public enum Server1 {
            /// Its URL.
            public static func url() throws -> URL { baseURL }
        }
    }

    /// A stand-in for the client swift-openapi-generator makes of the Episodes service's document.
    public struct Client: Sendable {
        /// An operation's output: its `200` response's JSON body.
        public struct Output<Body: Sendable>: Sendable {
            /// A `200` response.
            public struct OK: Sendable {
                /// Its body.
                public var body: JSONBody
            }

            /// A JSON body.
            public struct JSONBody: Sendable {
                /// The decoded value.
                public var json: Body
            }

            /// The `200` response.
            public var ok: OK
        }

        /// The path parameters of `getEpisode`.
        public struct EpisodePath: Sendable {
            /// The episode's identifier.
            public var id: String
            /// Parameters for an episode.
            public init(id: String) { self.id = id }
        }

        /// A client that sends through `transport`.
        public init(serverURL: URL, transport: any ClientTransport) {}

        /// `GET /episodes`.
        public func listEpisodes() async throws -> Output<[Episode]> { throw CancellationError() }

        /// `GET /episodes/{id}`.
        public func getEpisode(path: EpisodePath) async throws -> Output<Episode> { throw CancellationError() }
    }
#endif
