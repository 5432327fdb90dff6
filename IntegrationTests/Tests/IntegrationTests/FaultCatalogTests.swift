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
    @Test func connectionRefusedIsCannotConnectToHost() async throws {
        // Start a server, note its port, stop it: nothing listens there any more.
        let server = try await EpisodesServer.start()
        let base = server.baseURL
        await server.stop()
        let error = try await #require(throws: WebserviceError.self) {
            try await webservice.load(Episode.all(at: base))
        }
        #expect(error.urlError?.code == .cannotConnectToHost)
        #expect(error.statusCode == nil)
    }

    @Test func connectionClosedMidBodyIsATransportError() async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(bytes(base / "faults/close-mid-body"))
            }
            // Linux's URLSession reports curl's "transfer closed with N bytes remaining" as URLError -1 (unknown),
            // Apple's as .networkConnectionLost.
            let code = try #require(error.urlError?.code)
            #expect([.networkConnectionLost, .unknown].contains(code))
            #expect(error.body == nil)
        }
    }

    @Test func contentLengthLongerThanTheBodyTimesOut() async throws {
        try await withServer { base in
            var resource = bytes(base / "faults/short-body")
            resource.timeout = 1
            let error = try await #require(throws: WebserviceError.self) { try await webservice.load(resource) }
            #expect(error.urlError?.code == .timedOut)
        }
    }

    @Test func headersThatNeverArriveTripTheSessionsIdleTimeout() async throws {
        try await withServer { base in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 1
            let impatient = Webservice(configuration: configuration)
            let error = try await #require(throws: WebserviceError.self) {
                try await impatient.load(bytes(base / "faults/stall?ms=30000"))
            }
            #expect(error.urlError?.code == .timedOut)
        }
    }

    @Test func trickleOutlastsTheIdleTimeoutButNotTheResourceTimeout() async throws {
        try await withServer { base in
            // Twelve bytes, one every 300 ms: 3.6 s in all, but no gap comes near the 2 s idle timeout (a margin wide
            // enough for a machine busy with other tests), so the session lets it finish.
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 2
            configuration.timeoutIntervalForResource = 2  // ignored on Linux, as this test shows
            let impatient = Webservice(configuration: configuration)
            let trickle = Resource<String>(get: base / "faults/trickle?bytes=12&ms=300")
            #if canImport(FoundationNetworking)
                #expect(try await impatient.load(trickle) == "xxxxxxxxxx")
            #endif

            // The resource's timeout bounds the whole request, on every platform.
            var bounded = trickle
            bounded.timeout = 1
            let error = try await #require(throws: WebserviceError.self) { try await webservice.load(bounded) }
            #expect(error.urlError?.code == .timedOut)
            #expect("\(error)".contains("timeout of 1.0 s"))
        }
    }

    @Test(arguments: [400, 401, 403, 404, 409, 422, 429, 500, 502, 503])
    func errorStatusesKeepTheirJSONBody(statusCode: Int) async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(bytes(base / "faults/status/\(statusCode)"))
            }
            guard case .unacceptableStatus(statusCode, let headers, let body) = error else {
                Issue.record("expected unacceptableStatus(\(statusCode)), got \(error)")
                return
            }
            #expect(
                headers.contains { $0.key.lowercased() == "content-type" && $0.value.hasPrefix("application/json") })
            let decoded = try JSONDecoder().decode(APIError.self, from: body)
            #expect(decoded.error == "status_\(statusCode)")
        }
    }

    @Test(arguments: [300, 304])
    func redirectionStatusWithoutALocationIsUnacceptable(statusCode: Int) async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(bytes(base / "faults/status/\(statusCode)"))
            }
            #expect(error.statusCode == statusCode)
        }
    }

    @Test func emptyBodyWithA200IsAParsingErrorForJSONButFineForVoid() async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(Resource<[Episode]>(get: base / "faults/empty"))
            }
            guard case .parsing(let underlying, 200, _, let body) = error else {
                Issue.record("expected parsing(_, 200), got \(error)")
                return
            }
            #expect(underlying is DecodingError)
            #expect(body.isEmpty)
            #expect(try await webservice.load(bytes(base / "faults/empty")).isEmpty)
        }
    }

    @Test func noContentLoadsAVoidResource() async throws {
        try await withServer { base in
            let resource = Resource<Void>(url: base / "faults/no-content", parse: { _ in })
            try await webservice.load(resource)
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(Resource<Episode>(get: base / "faults/no-content"))
            }
            #expect(error.statusCode == 204)
            #expect(error.underlyingError is DecodingError)
        }
    }

    @Test func malformedJSONIsAParsingErrorWithTheBody() async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(Resource<Episode>(get: base / "faults/malformed-json"))
            }
            #expect(error.underlyingError is DecodingError)
            #expect(error.body.map { String(decoding: $0, as: UTF8.self) } == #"{"id": "1", "title": "#)
        }
    }

    @Test func htmlInsteadOfJSONIsAParsingErrorThatShowsTheContentType() async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(Resource<[Episode]>(get: base / "faults/html"))
            }
            #expect(error.statusCode == 200)
            #expect(error.underlyingError is DecodingError)
            #expect("\(error)".contains("of text/html"))
        }
    }

    @Test func redirectLoopIsTooManyRedirects() async throws {
        try await withServer { base in
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(bytes(base / "faults/redirect-loop"))
            }
            #expect(error.urlError?.code == .httpTooManyRedirects)
        }
    }
}

/// Informational (1xx) responses, which a client must wait past, and the uploads that trigger `100 Continue`.
@Suite(.timeLimit(.minutes(1))) struct InterimResponseAndUploadTests {
    @Test(arguments: [102, 103])
    func informationalResponseWithoutAFinalOneEndsAtTheTimeout(statusCode: Int) async throws {
        try await withServer { base in
            var resource = bytes(base / "faults/status/\(statusCode)")
            resource.timeout = 1
            let error = try await #require(throws: WebserviceError.self) { try await webservice.load(resource) }
            #expect(error.urlError?.code == .timedOut)
        }
    }

    @Test func largeUploadIsSentWholeWhateverTheExpectContinueHandshake() async throws {
        try await withServer { base in
            // curl asks `Expect: 100-continue` before large bodies; the server's interim 100 must not confuse load.
            let synopsis = String(repeating: "s", count: 1_500_000)  // under the server's 2 MB upload limit
            let created = try await webservice.load(
                Episode.create(EpisodeDraft(title: "Big", synopsis: synopsis), at: base))
            #expect(created.synopsis.count == synopsis.count)
        }
    }

    @Test func uploadOverTheServersLimitIsA413WithItsJSONBody() async throws {
        try await withServer { base in
            let draft = EpisodeDraft(title: "Huge", synopsis: String(repeating: "s", count: 3_000_000))
            let error = try await #require(throws: WebserviceError.self) {
                try await webservice.load(Episode.create(draft, at: base).decodingErrors(as: APIError.self))
            }
            #expect(error.statusCode == 413)
            #expect((error.underlyingError as? APIError)?.error == "content_too_large")
        }
    }
}
