import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Responses that are legal HTTP, or nearly, that no server library writes, each with both transports: every one ends
/// in a body or a typed error that says what happened, never in a crash or an untyped `URLError(.unknown)`.
@Suite(.timeLimit(.minutes(1))) struct MalformedResponseTests {
    /// A body shorter than its `Content-Length`: a connection lost, so `RetryPolicy` retries it.
    @Test(arguments: TransportKind.allCases) func aBodyCutShortIsALostConnection(kind: TransportKind) async throws {
        let response = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\nhello"
        try await withRawServer(answering: response) { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(bytes(base / "short"))
            }
            #expect((error.underlyingError as? URLError)?.code == .networkConnectionLost, "\(error)")
        }
    }

    /// RFC 9112's status line with an empty reason phrase (`200` and a space) arrives whole with both transports.
    @Test(arguments: TransportKind.allCases) func anEmptyReasonPhraseIsAccepted(kind: TransportKind) async throws {
        let response = "HTTP/1.1 200 \r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
        try await withRawServer(answering: response) { base in
            let body = try await kind.webservice().load(bytes(base / "empty-reason"))
            #expect(body == Data("hello".utf8))
        }
    }

    /// A status line that ends after the code, without the space before the reason phrase: AsyncHTTPClient accepts it,
    /// as curl does; FoundationNetworking can't parse it, which fails as `.badServerResponse`, not `.unknown`.
    @Test(arguments: TransportKind.allCases) func aStatusLineWithoutAReasonPhraseArrivesOrIsABadServerResponse(
        kind: TransportKind
    ) async throws {
        let response = "HTTP/1.1 200\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
        try await withRawServer(answering: response) { base in
            let load = { try await kind.webservice().load(bytes(base / "no-reason")) }
            switch kind {
            case .asyncHTTPClient, .publicAPI:
                let body = try await load()
                #expect(body == Data("hello".utf8))
            case .urlSession, .publicSession:
                let error = try await #require(throws: WebserviceError.self) { try await load() }
                #expect((error.underlyingError as? URLError)?.code == .badServerResponse, "\(error)")
            }
        }
    }

    /// A chunked body followed by trailer fields: AsyncHTTPClient reads it, Linux `URLSession` stops the process.
    ///
    /// FoundationNetworking traps (`Fatal error: Transfer completed, but there's no response.`) before any delegate
    /// hears of the end, so no transport built on it can shield it (see Transports.md). The child process proves the
    /// limit: when a toolchain fixes it, this fails, and the documentation's warning can go.
    @Test(arguments: TransportKind.allCases) func trailerFieldsAreReadOrTheLimitIsDocumented(kind: TransportKind)
        async throws
    {
        let variable = "RESOURCEKIT_TRAILERS"
        let response =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + "5\r\nhello\r\n0\r\nX-Checksum: 5d41402a\r\n\r\n"
        if let chosen = ProcessInfo.processInfo.environment[variable] {
            guard chosen == kind.rawValue else { return }
            try await withRawServer(answering: response) { base in
                let body = try await kind.webservice().load(bytes(base / "trailers"))
                #expect(body == Data("hello".utf8))
            }
            return
        }
        let child = try await runTestsInChild(
            filter: "/trailerFieldsAreReadOrTheLimitIsDocumented\\(",
            environment: [variable: kind.rawValue, "SWIFT_BACKTRACE": "enable=no"])
        switch kind {
        case .asyncHTTPClient, .publicAPI:
            #expect(child.succeeded, "\(child.output.suffix(2_000))")
        case .urlSession, .publicSession:
            #expect(!child.succeeded, "FoundationNetworking read the trailers: drop the warning in Transports.md")
            #expect(
                child.output.contains("Transfer completed, but there's no response"), "\(child.output.suffix(2_000))")
        }
    }

    /// A head no HTTP parser reads, one over what the transport reads at all, or a chunked body's framing that isn't
    /// HTTP, is `.badServerResponse` with both transports, and ``RetryPolicy`` doesn't send the request again: the
    /// answer would be the same every time.
    @Test(arguments: TransportKind.allCases, MalformedResponse.allCases)
    func aMalformedOrOversizedResponseIsABadServerResponseAndNotRetried(
        kind: TransportKind,
        malformed: MalformedResponse
    ) async throws {
        try await withRawServer(answering: malformed.response) { base, received in
            let webservice = kind.webservice(middleware: [RetryPolicy(maxAttempts: 3, baseDelay: 0.01)])
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(bytes(base / "malformed"))
            }
            #expect(error.urlError?.code == .badServerResponse, "\(error)")
            #expect(error.attempts == 1)
            #expect(received().count == 1)
        }
    }
}

/// Responses that aren't HTTP, or whose head is too large for any client to read.
enum MalformedResponse: String, CaseIterable, CustomTestStringConvertible {
    case statusCodeNotANumber
    case fieldWithoutAColon
    case nulInAFieldValue
    case notHTTPAtAll
    case chunkSizeNotHex
    /// 4 000 fields of 100 bytes, 420 KB: over curl's 300 KB and AsyncHTTPClient's 80 KiB. (66 000 fields of a few
    /// bytes fail the same way, but FoundationNetworking spends 5 s on their lines first, stalling every other
    /// `URLSession` load of the suite; see Transports.md.)
    case headOverTheLimits

    var testDescription: String { rawValue }

    var response: String {
        switch self {
        case .statusCodeNotANumber: "HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
        case .fieldWithoutAColon: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nNo colon here\r\n\r\n{}"
        case .nulInAFieldValue: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Nul: a\u{0}b\r\n\r\n{}"
        case .notHTTPAtAll: "SSH-2.0-OpenSSH_9.2\r\n\r\n"
        case .chunkSizeNotHex: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"
        case .headOverTheLimits:
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
                + (0..<4_000).map { "X-Field-\($0): \(String(repeating: "v", count: 90))\r\n" }.joined() + "\r\n{}"
        }
    }
}
