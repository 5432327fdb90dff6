import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Linux `URLSession` reports TLS failures, and some failures of the transfer, as `URLError(.unknown)` with curl's
/// message; `Webservice` reports them with the codes Apple platforms use.
@Suite struct TLSErrorTests {
    /// curl's messages (curl 7.88 with OpenSSL 3, and OpenSSL 1.1's spelling) and the code each one gets.
    static let curlMessages: [(String, URLError.Code)] = [
        ("SSL certificate problem: self-signed certificate", .serverCertificateUntrusted),
        ("SSL certificate problem: self signed certificate", .serverCertificateUntrusted),
        ("SSL certificate problem: unable to get local issuer certificate", .serverCertificateUntrusted),
        ("SSL certificate problem: self-signed certificate in certificate chain", .serverCertificateHasUnknownRoot),
        ("SSL certificate problem: certificate has expired", .serverCertificateHasBadDate),
        ("SSL certificate problem: certificate is not yet valid", .serverCertificateNotYetValid),
        (
            "SSL: no alternative certificate subject name matches target host name '127.0.0.1'",
            .serverCertificateUntrusted
        ),
        (
            "SSL: certificate subject name 'example.com' does not match target host name 'localhost'",
            .serverCertificateUntrusted
        ),
        ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:8443 ", .secureConnectionFailed),
        ("error:0A00010B:SSL routines::wrong version number", .secureConnectionFailed),
        ("OpenSSL/3.0.19: error:0A00045C:SSL routines::tlsv13 alert certificate required", .clientCertificateRequired),
        // A body cut short (chunked, or shorter than its Content-Length): `RetryPolicy` retries a lost connection.
        ("transfer closed with 95 bytes remaining to read", .networkConnectionLost),
        ("transfer closed with outstanding read data remaining", .networkConnectionLost),
        // FoundationNetworking refused a header line, such as `HTTP/1.1 200` without a reason phrase.
        ("Failed writing header", .badServerResponse),
        // A head curl won't read: too large, or not HTTP.
        ("Too large response headers: 307240 > 307200", .badServerResponse),
        ("Header without colon", .badServerResponse),
        ("Nul byte in header", .badServerResponse),
        ("Weird server reply", .badServerResponse),
        ("Illegal or missing hexadecimal sequence in chunked-encoding", .badServerResponse),
    ]

    /// The error `URLSessionTransport` reports when FoundationNetworking ends a task with `error`.
    private func reported(_ error: any Error) async throws -> any Error {
        URLError.standardizing(error)
    }

    @Test(arguments: curlMessages)
    func curlTLSMessagesGetApplesCodes(message: String, code: URLError.Code) async throws {
        let linux = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message])
        let reported = try #require(try await reported(linux) as? URLError)
        #expect(reported.code == code)
        #expect((reported.userInfo[NSUnderlyingErrorKey] as? URLError)?.code == .unknown)
        #expect(reported.localizedDescription.hasSuffix("(\(message))"))
    }

    static let untouched: [URLError] = [
        URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "Failure when receiving data from the peer"]),
        URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "OpenSSL SSL_read: error:0A000126:unexpected eof"]),
        URLError(.unknown),
        URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "SSL connection timeout"]),
        URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "Failed to connect"]),
        URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "Protocol \"ftp\" not supported"]),
    ]

    /// curl reads a status line that isn't HTTP as HTTP/0.9, and refuses a status code that isn't a number, which
    /// FoundationNetworking reports as `.unsupportedURL`.
    @Test(arguments: ["Received HTTP/0.9 when not allowed", "Unsupported response code in HTTP response"])
    func aStatusLineCurlRefusesIsABadServerResponse(message: String) async throws {
        let linux = URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: message])
        let reported = try #require(try await reported(linux) as? URLError)
        #expect(reported.code == .badServerResponse)
        #expect(reported.localizedDescription.hasSuffix("(\(message))"))
    }

    @Test(arguments: untouched)
    func otherErrorsStayAsTheyAre(error: URLError) async throws {
        let reported = try #require(try await reported(error) as? URLError)
        #expect(reported.code == error.code)
        #expect(reported.localizedDescription == error.localizedDescription)
    }

    @Test func theSessionTransportReportsLinuxCertificateFailureAsServerCertificateUntrusted() async throws {
        let url = try #require(URL(string: "https://127.0.0.1:8443/episodes"))
        let linux = URLError(
            .unknown,
            userInfo: [
                NSLocalizedDescriptionKey: "SSL certificate problem: self-signed certificate",
                NSURLErrorFailingURLErrorKey: url,
            ])
        let reported = try #require(URLError.standardizing(linux) as? URLError)
        #expect(reported.code == .serverCertificateUntrusted)
        #expect(reported.failingURL == url)
    }
}

/// `URLSessionTransport` gives Linux's curl failures Apple's codes itself, on its own session and on a caller's.
@Suite struct SessionTransportErrorCodeTests {
    /// A server inside `URLSession` that fails every request as FoundationNetworking reports an untrusted certificate.
    final class UntrustedServer: URLProtocol {
        override class func canInit(with request: URLRequest) -> Bool { true }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
        override func startLoading() {
            let linux = URLError(
                .unknown, userInfo: [NSLocalizedDescriptionKey: "SSL certificate problem: self-signed certificate"])
            client?.urlProtocol(self, didFailWithError: linux)
        }
        override func stopLoading() {}
    }

    static func configuration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [UntrustedServer.self]
        return configuration
    }

    @Test(arguments: ["its own session", "a caller's session"])
    func aLinuxCertificateFailureIsServerCertificateUntrusted(on session: String) async throws {
        let transport =
            session == "its own session"
            ? URLSessionTransport(configuration: Self.configuration())
            : URLSessionTransport(session: URLSession(configuration: Self.configuration()))
        let error = try await #require(throws: WebserviceError.self) {
            try await Webservice(transport: transport).load(Resource<Data>(url: baseURL))
        }
        let reported = try #require(try requireCase(\.transport, of: error) as? URLError)
        #expect(reported.code == .serverCertificateUntrusted)
    }
}
