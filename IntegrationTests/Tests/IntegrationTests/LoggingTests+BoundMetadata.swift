import Foundation
import Logging
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LoggingTests {
    /// A load in `withLogger(mergingMetadata:)` with no logger bound before logs to the middleware's logger, with
    /// that metadata.
    @Test func metadataMergedAroundALoadIsInItsLinesWithTheMiddlewaresLogger() async throws {
        let lines = RecordingLogHandler.Lines()
        let transport = StaleTransport(delay: 0)
        let webservice = Webservice(transport: transport, middleware: [LoadLogging(logger: .recording(into: lines))])
        let url = URL(string: "https://api.example.com/items")!
        try await withLogger(mergingMetadata: ["request.id": "42"]) { _ in
            _ = try await webservice.load(Resource<Data>(url: url))
        }
        #expect(!lines.all.isEmpty)
        #expect(lines.all.allSatisfy { $0.metadata["request.id"] == "42" })
    }
}
