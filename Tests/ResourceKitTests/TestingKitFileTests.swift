import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The testing kit reads its fixtures and recordings as ResourceKit reads files: a FIFO is a clear `URLError` at once,
/// never a wait for a writer, and a link among the recordings is refused.
///
/// Each case runs in a child process, so a regression fails its test (by the child's watchdog) instead of stalling
/// the run.
@Suite struct TestingKitFileTests {
    @Test(arguments: ["fixture", "stub", "replay", "replay-link"])
    func aFileThatIsNotARegularFileFailsAtOnce(reader: String) async throws {
        guard let child = try await ChildProcess.run(reader, { try await Self.errorCode(reading: reader) }) else {
            return
        }
        #expect(child.exitedNormally, "\(child.output.suffix(2_000))")
        #expect(child.result == "\(URLError.Code.cannotOpenFile.rawValue)")
    }

    /// The code of the `URLError` `reader` fails with on a FIFO (on a link to a recording, for `"replay-link"`), or a
    /// description of what happened instead.
    private static func errorCode(reading reader: String) async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("fifo.json")
        guard mkfifo(fifo.path, 0o600) == 0 else { return "mkfifo failed" }
        let url = URL(string: "https://api.example.com/thing")!
        do {
            switch reader {
            case "fixture":
                _ = try Resource<Data>(url: url).value(fromFixture: fifo)
            case "stub":
                let webservice = Webservice(transport: StubTransport.answering(.fixture(fifo)))
                _ = try await webservice.load(Resource<Data>(url: url))
            case "replay":
                _ = try ReplayTransport(from: directory)
            default:
                try FileManager.default.removeItem(at: fifo)
                let recording = directory.appendingPathComponent("recorded.json")
                try Data(#"{"method":"GET"}"#.utf8).write(to: recording)
                let recordings = directory.appendingPathComponent("recordings")
                try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(
                    at: recordings.appendingPathComponent("link.json"), withDestinationURL: recording)
                _ = try ReplayTransport(from: recordings)
            }
            return "read"
        } catch let error as URLError {
            return "\(error.code.rawValue)"
        } catch let error as WebserviceError {
            return "\((error.underlyingError as? URLError)?.code.rawValue ?? 0)"
        }
    }
}
