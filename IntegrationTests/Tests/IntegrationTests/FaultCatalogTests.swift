import EpisodesService
import Foundation
import ResourceKit
import SwiftTalk
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Faults a real server and network produce, each with the exact typed error it must become.
///
/// The suite's time limit proves that none of them hangs; running at all proves that none crashes.
@Suite(.timeLimit(.minutes(1))) struct FaultCatalogTests {
    @Test(arguments: TransportKind.allCases)
    func connectionRefusedIsCannotConnectToHost(kind: TransportKind) async throws {
        // Start a server, note its port, stop it: nothing listens there any more.
        let server = try await EpisodesServer.start()
        let base = server.baseURL
        await server.stop()
        let error = try await #require(throws: WebserviceError.self) {
            try await kind.webservice().load(Episode.all(at: base))
        }
        #expect(error.urlError?.code == .cannotConnectToHost)
        #expect(error.statusCode == nil)
    }

    @Test(arguments: TransportKind.allCases)
    func connectionClosedMidBodyIsATransportError(kind: TransportKind) async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(bytes(base / "faults/close-mid-body"))
            }
            // Linux's URLSession reports curl's "transfer closed with N bytes remaining" as URLError -1 (unknown),
            // Apple's as .networkConnectionLost.
            let code = try #require(error.urlError?.code)
            #expect([.networkConnectionLost, .unknown].contains(code))
            #expect(error.body == nil)
        }
    }

    /// A response that never ends: a `Content-Length` longer than the body, or informational (1xx) responses, which a
    /// client must wait past, without a final one.
    @Test(arguments: TransportKind.allCases, ["faults/short-body", "faults/status/102", "faults/status/103"])
    func responseThatNeverEndsTimesOutAtTheResourceTimeout(kind: TransportKind, path: String) async throws {
        try await withServer { base in
            var resource = bytes(base / path)
            resource.timeout = 1
            let error = try await #require(throws: WebserviceError.self) { try await kind.webservice().load(resource) }
            #expect(error.timedOut, "\(error)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func headersThatNeverArriveTripTheIdleTimeout(kind: TransportKind) async throws {
        try await withServer { base in
            try await kind.withWebservice(idleTimeout: 1) { impatient in
                let error = try await #require(throws: WebserviceError.self) {
                    try await impatient.load(bytes(base / "faults/stall?ms=30000"))
                }
                #expect(error.urlError?.code == .timedOut)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func trickleOutlastsTheIdleTimeoutButNotTheResourceTimeout(kind: TransportKind) async throws {
        try await withServer { base in
            // Twelve bytes, one every 400 ms: 4.8 s in all, but no gap comes near the 4 s idle timeout (a margin wide
            // enough for a machine busy with other tests: one twice as busy as it has cores saw a 2 s gap), so the
            // transport lets it finish.
            let trickle = Resource<String>(get: base / "faults/trickle?bytes=12&ms=400")
            try await kind.withWebservice(idleTimeout: 4) { impatient in
                let text = try await impatient.load(trickle)
                #expect(text == "xxxxxxxxxx")
            }

            // The resource's timeout bounds the whole request, on every platform.
            var bounded = trickle
            bounded.timeout = 1
            let error = try await #require(throws: WebserviceError.self) { try await kind.webservice().load(bounded) }
            #expect(error.timedOut, "\(error)")
            #expect("\(error)".contains("timeout of 1.0 s"))
        }
    }

    @Test(arguments: TransportKind.allCases, [400, 401, 403, 404, 409, 422, 429, 500, 502, 503])
    func errorStatusesKeepTheirJSONBody(kind: TransportKind, statusCode: Int) async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(bytes(base / "faults/status/\(statusCode)"))
            }
            let response = try #require(error.unacceptableStatus, "expected unacceptableStatus, got \(error)")
            #expect(response.statusCode == statusCode)
            #expect(response.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json") == true)
            let decoded = try JSONDecoder().decode(APIError.self, from: response.body.data ?? Data())
            #expect(decoded.error == "status_\(statusCode)")
        }
    }

    @Test(arguments: TransportKind.allCases, [300, 304])
    func redirectionStatusWithoutALocationIsUnacceptable(kind: TransportKind, statusCode: Int) async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(bytes(base / "faults/status/\(statusCode)"))
            }
            #expect(error.statusCode == statusCode)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func emptyBodyWithA200IsAParsingErrorForJSONButFineForVoid(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice()
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(Resource<[Episode]>(get: base / "faults/empty"))
            }
            let (underlying, response) = try #require(error.parsing, "expected parsing, got \(error)")
            #expect(underlying is DecodingError)
            #expect(response.statusCode == 200)
            #expect(response.body.data?.isEmpty == true)
            #expect(try await webservice.load(bytes(base / "faults/empty")).isEmpty)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func noContentLoadsAVoidResource(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice()
            let resource = Resource<Void>(url: base / "faults/no-content", parse: { _ in })
            try await webservice.load(resource)
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(Resource<Episode>(get: base / "faults/no-content"))
            }
            #expect(error.statusCode == 204)
            #expect(error.underlyingError is DecodingError)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func malformedJSONIsAParsingErrorWithTheBody(kind: TransportKind) async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(Resource<Episode>(get: base / "faults/malformed-json"))
            }
            #expect(error.underlyingError is DecodingError)
            #expect(error.body.map { String(decoding: $0, as: UTF8.self) } == #"{"id": "1", "title": "#)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func htmlInsteadOfJSONIsAParsingErrorThatShowsTheContentType(kind: TransportKind) async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(Resource<[Episode]>(get: base / "faults/html"))
            }
            #expect(error.statusCode == 200)
            #expect(error.underlyingError is DecodingError)
            #expect("\(error)".contains("of text/html"))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func redirectLoopIsTooManyRedirects(kind: TransportKind) async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(bytes(base / "faults/redirect-loop"))
            }
            #expect(error.urlError?.code == .httpTooManyRedirects)
        }
    }
}

/// Uploads large enough for an `Expect: 100-continue` handshake, whose interim response a client must wait past.
@Suite(.timeLimit(.minutes(1))) struct InterimResponseAndUploadTests {
    @Test(arguments: TransportKind.allCases)
    func largeUploadIsSentWholeWhateverTheExpectContinueHandshake(kind: TransportKind) async throws {
        try await withServer { base in
            // curl asks `Expect: 100-continue` before large bodies; the server's interim 100 must not confuse load.
            let synopsis = String(repeating: "s", count: 1_500_000)  // under the server's 2 MB upload limit
            let created = try await kind.webservice().load(
                Episode.create(EpisodeDraft(title: "Big", synopsis: synopsis), at: base))
            #expect(created.synopsis.count == synopsis.count)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func uploadOverTheServersLimitIsA413WithItsJSONBody(kind: TransportKind) async throws {
        try await withServer { base in
            let draft = EpisodeDraft(title: "Huge", synopsis: String(repeating: "s", count: 3_000_000))
            let error = try await #require(throws: WebserviceError.self) {
                try await kind.webservice().load(Episode.create(draft, at: base).decodingAPIErrors(as: APIError.self))
            }
            #expect(error.statusCode == 413)
            #expect((error.underlyingError as? APIError)?.error == "content_too_large")
        }
    }
}
