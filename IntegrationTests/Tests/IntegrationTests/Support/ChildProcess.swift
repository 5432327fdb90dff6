import Foundation
import Testing

/// Runs `body` in a child process, for tests whose regression would crash the process: the test binary runs again
/// with only the calling test, `body` runs there, and a crash fails this one test instead of killing the run.
///
/// ```swift
/// @Test func lyingContentLengthDoesNotCrash() async throws {
///     try await inChildProcess { try await load(...) }
/// }
/// ```
///
/// - Parameters:
///   - test: The calling test's function name, which selects it in the child; unique among the suite's tests.
///   - body: The work, with its expectations; they are checked in the child.
/// - Throws: What `body` throws in the child, or an error starting the child process.
func inChildProcess(test: String = #function, _ body: () async throws -> Void) async throws {
    let variable = "RESOURCEKIT_CHILD_TEST"
    let name = String(test.prefix { $0 != "(" })
    if ProcessInfo.processInfo.environment[variable] == name {
        try await body()
        return
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--testing-library", "swift-testing", "--filter", "/\(name)\\("]
    process.environment = ProcessInfo.processInfo.environment.merging([variable: name]) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let transcript = await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            continuation.resume(returning: String(decoding: data, as: UTF8.self))
        }
    }
    let exitedNormally = process.terminationReason == .exit && process.terminationStatus == 0
    #expect(exitedNormally, "the child process for \(name) failed or crashed:\n\(transcript.suffix(4_000))")
    let ranTests = transcript.contains("Test run with") && !transcript.contains("Test run with 0 tests")
    #expect(ranTests, "the child process ran no test:\n\(transcript.suffix(2_000))")
}
