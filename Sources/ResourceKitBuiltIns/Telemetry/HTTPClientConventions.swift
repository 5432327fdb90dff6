import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// The values of OpenTelemetry's HTTP client conventions that spans, metrics and log lines share, each with few
/// possible values and no credential: see <doc:Observability>.
public enum HTTPClientConventions {
    /// The methods OpenTelemetry names; another is `_OTHER`.
    public static let knownMethods: Set<String> = [
        "CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "QUERY", "TRACE",
    ]

    /// `http.request.method`: `method` when OpenTelemetry names it, otherwise `_OTHER`.
    public static func method(_ method: String) -> String {
        knownMethods.contains(method) ? method : "_OTHER"
    }

    /// `server.address` and `server.port`: the URL's host in lowercase, and its port or its scheme's; `nil` without a
    /// host.
    public static func server(of url: URL?) -> (address: String, port: Int?)? {
        // The host as written unless it has escapes (or is an IDN, which comes back escaped): decoding costs more.
        guard let url, let written = url.host(percentEncoded: true) else { return nil }
        guard let host = written.utf8.contains(UInt8(ascii: "%")) ? url.host : written else { return nil }
        // A host's letter case doesn't matter: one host is one value.
        return (asciiLowercased(host), url.port ?? defaultPort(of: url.scheme))
    }

    /// The port of `scheme`, `http` or `https` in any letter case; `nil` for another.
    public static func defaultPort(of scheme: String?) -> Int? {
        switch scheme {
        case "https": 443
        case "http": 80
        case let scheme?:
            switch asciiLowercased(scheme) {
            case "https": 443
            case "http": 80
            default: nil
            }
        case nil: nil
        }
    }

    /// `error.type` of a failure, as ``LoadContext/named(_:)`` names it: `timeout` for the resource's timeout, the
    /// status of an error with a response, or the type of the error, such as `URLError` for the transport's.
    public static func errorType(of error: any Error) -> String {
        if let statusCode = (error as? WebserviceError)?.statusCode { return String(statusCode) }
        if case .timedOut = (error as? WebserviceError)?.reason { return "timeout" }
        let cause = (error as? WebserviceError)?.underlyingError ?? error
        return String(describing: type(of: cause))
    }
}
