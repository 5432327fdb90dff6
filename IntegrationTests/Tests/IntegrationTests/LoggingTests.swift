import EpisodesService
import Foundation
import Logging
import ResourceKit
import Testing

/// `LoadLogging`: each load and its requests logged through swift-log at trace and debug, with metadata, to the
/// logger bound around the load or the web service's, and no credential in any line, with each transport.
@Suite(.timeLimit(.minutes(1))) struct LoggingTests {
    @Test(arguments: TransportKind.allCases)
    func aLoadLogsEachRequestAndItsRetryWithMetadata(kind: TransportKind) async throws {
        try await withProductionServer { base in
            let lines = RecordingLogHandler.Lines()
            let webservice = kind.webservice(middleware: [
                LoadLogging(logger: .recording(into: lines)), RetryPolicy(baseDelay: 0.01),
            ])
            var resource = Resource<Data>(url: base / "production/unavailable/logging-\(kind)?failures=1")
            resource.name = "unavailable"
            _ = try await webservice.load(resource)

            let logged = lines.all
            #expect(
                logged.map(\.level) == [.trace, .debug, .debug, .trace, .debug, .debug], "\(logged.map(\.message))")
            #expect(logged.map { $0.metadata["resourcekit.attempt"] } == ["1", "1", "1", "2", "2", "2"])
            #expect(logged.map { $0.metadata["http.response.status_code"] } == [nil, "503", nil, nil, "200", "200"])
            #expect(logged.allSatisfy { $0.metadata["http.request.method"] == "GET" })
            #expect(logged.allSatisfy { $0.metadata["resourcekit.resource"] == "unavailable" })
            #expect(logged.allSatisfy { $0.metadata["url.full"] == resource.url.absoluteString })
            #expect(logged[2].message.contains("retrying"))
            #expect(logged[5].message.contains("loaded in"))
            #expect(logged[0].metadata["resourcekit.curl"]?.hasPrefix("curl") == true)
            #expect(logged[4].metadata["http.response.body.size"] == "\(#"{"attempt":2}"#.utf8.count)")
            #expect(Double(logged[5].metadata["resourcekit.duration"] ?? "") ?? -1 > 0)
        }
    }

    /// A load answered from 400 on is a failed load in its end line, as in its metric and span.
    @Test(arguments: TransportKind.allCases, [401, 404, 503])
    func aLoadAnsweredFrom400OnEndsWithItsErrorType(kind: TransportKind, statusCode: Int) async throws {
        try await withServer { base in
            let lines = RecordingLogHandler.Lines()
            let webservice = kind.webservice(middleware: [LoadLogging(logger: .recording(into: lines, level: .debug))])
            await #expect(throws: WebserviceError.self) {
                try await webservice.load(Resource<Data>(url: base / "faults/status/\(statusCode)"))
            }
            let end = try #require(lines.all.last)
            #expect(end.message.contains("loaded in"), "\(end.message)")
            #expect(end.metadata["error.type"] == "\(statusCode)")
            #expect(lines.all.allSatisfy { $0.metadata["error.type"] == "\(statusCode)" }, "the response's line too")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aLoggerBoundAroundALoadTakesTheWebServicesPlace(kind: TransportKind) async throws {
        try await withServer { base in
            let (service, perLoad) = (RecordingLogHandler.Lines(), RecordingLogHandler.Lines())
            let webservice = kind.webservice(middleware: [LoadLogging(logger: .recording(into: service))])
            let resource = Resource<Data>(url: base / "echo?id=1")
            try await withLogger(.recording(into: perLoad, level: .debug, label: "request-7")) { _ in
                _ = try await webservice.load(resource)
            }
            #expect(service.all.isEmpty)
            #expect(perLoad.all.map(\.level) == [.debug, .debug], "no trace line at debug: \(perLoad.all)")
            _ = try await webservice.load(resource)
            #expect(service.all.count == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func noLineCarriesACredentialEvenAtTrace(kind: TransportKind) async throws {
        try await withServer { base in
            let secret = "s3cr3t-in-logs"
            let lines = RecordingLogHandler.Lines()
            let webservice = kind.webservice(middleware: [LoadLogging(logger: .recording(into: lines))])
            var components = try #require(URLComponents(url: base / "faults/body", resolvingAgainstBaseURL: false))
            components.user = "alice"
            components.password = secret
            components.queryItems = [URLQueryItem(name: "access_token", value: secret)]
            let body = Data(#"{"password": "\#(secret)", "title": "Logged"}"#.utf8)
            let resource = Resource<Data>(
                url: try #require(components.url), method: .post(body),
                headers: ["Authorization": "Bearer \(secret)", "Cookie": "session=\(secret)"])
            _ = try? await webservice.load(resource)
            let failing = Resource<Data>(
                url: try #require(URL(string: "http://u:\(secret)@127.0.0.1:1/?token=\(secret)")))
            _ = try? await webservice.load(failing)
            let logged = lines.all
            #expect(logged.count >= 6)
            #expect(logged.contains { $0.metadata["resourcekit.curl"]?.contains("Authorization") == true })
            #expect(logged.contains { $0.metadata["error.type"] == "URLError" })
            for line in logged { #expect(!line.fullText.contains(secret), "\(line.fullText)") }
        }
    }
}
