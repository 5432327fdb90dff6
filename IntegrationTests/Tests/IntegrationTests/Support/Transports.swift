import ResourceKit

/// The transports a test runs with: ResourceKit's own `URLSession`, and AsyncHTTPClientTransport too when the
/// package's `AsyncHTTPClient` trait is on.
let transportNames: [String] = {
    #if AsyncHTTPClient
        ["URLSession", "AsyncHTTPClient"]
    #else
        ["URLSession"]
    #endif
}()

/// A web service with the named transport: `Webservice()` for `"URLSession"`, otherwise ``webservice``.
func webservice(_ transport: String) -> Webservice {
    transport == "URLSession" ? Webservice() : webservice
}
