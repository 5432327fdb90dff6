import Foundation
import ResourceKit

/// The signed-in Swift Talk account.
public struct Account: Codable, Sendable, Equatable {
    /// The account holder's name.
    public var name: String
    /// Whether the account has a subscription.
    public var subscriber: Bool

    /// The account the token belongs to: `GET /account` with `Authorization: Bearer <token>`.
    ///
    /// - Parameters:
    ///   - baseURL: The API's base URL.
    ///   - token: The bearer token.
    /// - Returns: The resource; loading it fails with status 401 when the token is missing or wrong.
    public static func current(at baseURL: URL, token: String) -> Resource<Account> {
        Resource(get: baseURL.appendingPathComponent("account"), headers: ["Authorization": "Bearer \(token)"])
            .decodingAPIErrors(as: APIErrorBody.self)
    }
}
