/// Whether a header field carries a credential: the standard ones, and API keys, tokens, sessions and secrets.
///
/// ``WebserviceError`` redacts these in its descriptions, and ResourceKit's session drops them from a redirect to
/// another origin.
func isCredentialHeader(_ name: String) -> Bool {
    let name = name.lowercased()
    return ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(name) || name.hasSuffix("-key")
        || ["token", "secret", "password", "apikey", "api-key", "session", "credential", "signature"].contains {
            name.contains($0)
        }
}
