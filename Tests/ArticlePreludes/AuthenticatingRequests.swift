/// The app's OAuth tokens.
public let tokens = Tokens()

/// Where the app gets an access token.
public struct Tokens: Sendable {
    /// The current access token, or a new one when `refreshing`.
    public func accessToken(refreshing: Bool) async throws -> String { "token" }
}
