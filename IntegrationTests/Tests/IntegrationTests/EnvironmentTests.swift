import EpisodesService
import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A web service's base URL, a value loaded with its response head, and acceptable statuses as a set, against the
/// Episodes server on both transports.
@Suite(.timeLimit(.minutes(1))) struct EnvironmentTests {
    @Test(arguments: TransportKind.allCases)
    func aRelativeResourceGoesToTheBaseAndItsRedirectResolvesAgainstTheResolvedURL(kind: TransportKind) async throws {
        try await withServer { base in
            // `to=headers` is relative too: the server's `Location` resolves against …/faults/redirect.
            var redirect = Resource<[String: String]>(get: try #require(URL(string: "redirect")))
            redirect.queryItems = [URLQueryItem(name: "to", value: "headers")]
            let service = kind.webservice(baseURL: base / "faults")
            let (headers, response) = try await service.load(redirect.withResponse)
            #expect(headers["accept"] == "application/json")
            #expect(response.statusCode == 200)
            #expect(response.url?.path == "/faults/headers")
            #expect(response.value(forHTTPHeaderField: "content-type")?.hasPrefix("application/json") == true)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theCredentialGoesOnlyToTheEnvironmentItBelongsTo(kind: TransportKind) async throws {
        try await withTwoServers { production, staging in
            let authentication = Authentication(for: [production]) { _ in "Bearer production-token" }
            let headers = Resource<[String: String]>(get: try #require(URL(string: "/faults/headers")))
            let sent = try await kind.webservice(baseURL: production, middleware: [authentication]).load(headers)
            let elsewhere = try await kind.webservice(baseURL: staging, middleware: [authentication]).load(headers)
            #expect(sent["authorization"] == "Bearer production-token")
            #expect(elsewhere["authorization"] == nil)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aSetOfStatusesAcceptsItsOwnAndRejectsTheRest(kind: TransportKind) async throws {
        try await withServer { base in
            let service = kind.webservice(baseURL: base)
            func load(_ status: Int) async throws -> Int {
                var resource = try Resource<Void>(url: #require(URL(string: "faults/status/\(status)")))
                resource.acceptableStatusCodes = [204, 409]
                return try await service.load(resource.withResponse).response.statusCode
            }
            #expect(try await load(204) == 204)
            #expect(try await load(409) == 409)
            let error = try await #require(throws: WebserviceError.self) { try await load(200) }
            #expect(error.statusCode == 200)
        }
    }
}
