import EpisodesService
import Foundation
import ResourceKit
import Testing

/// A 401 with a `WWW-Authenticate` challenge arrives as a ``WebserviceError`` with its status, header fields and body,
/// with each transport. (Linux's `URLSession` would wait forever for a credential, ignoring every timeout.)
@Suite(.timeLimit(.minutes(1))) struct AuthenticationChallengeTests {
    private static let challenges = [
        #"Basic realm="episodes""#, "Basic", #"Bearer realm="episodes", error="invalid_token""#,
        #"Digest realm="episodes", nonce="7a3f", qop="auth""#,
    ]

    @Test(arguments: TransportKind.allCases, challenges)
    func challengeArrivesAsA401WithItsBody(kind: TransportKind, challenge: String) async throws {
        try await withServer { base in
            var account = Resource<[String: String]>(get: base / "faults/unauthorized")
            account.queryItems = [URLQueryItem(name: "challenge", value: challenge)]
            account.timeout = 30  // only so that a regression fails instead of hanging; the 401 arrives at once
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(account)
            }
            #expect(error.statusCode == 401, "\(error)")
            #expect(error.response?.value(forHTTPHeaderField: "WWW-Authenticate") == challenge)
            let body = try JSONDecoder().decode([String: String].self, from: try #require(error.body))
            #expect(body == ["error": "unauthorized", "reason": "Sign in again"])
        }
    }
}
