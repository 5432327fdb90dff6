import Foundation
import Testing

/// How a program run by ``runProgram(_:environment:)`` ended.
struct ProgramResult {
    /// Whether it exited with status 0, rather than failing or crashing.
    var succeeded: Bool
    /// What it printed, standard output and standard error together.
    var output: String
}

/// Runs `arguments` (a program found on `PATH`, then its arguments) with extra `environment` variables, and waits for
/// it on a Dispatch thread, so the Swift tasks of this process (the test server's among them) keep running.
///
/// A program still running after 10 minutes is killed: a child that hangs fails its test instead of holding the run.
///
/// - Throws: The error of starting the program.
func runProgram(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProgramResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(600)) {
        // A program that has exited is never running again, so its id, which may be reused, is left alone.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    return await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let succeeded = process.terminationReason == .exit && process.terminationStatus == 0
            continuation.resume(
                returning: ProgramResult(succeeded: succeeded, output: String(decoding: printed, as: UTF8.self)))
        }
    }
}

/// Runs the tests of this test binary that `filter` selects, in a child process, with extra `environment` variables;
/// `prefix` runs it through another program, such as `unshare`.
///
/// - Throws: The error of starting the child.
func runTestsInChild(filter: String, environment: [String: String], prefix: [String] = []) async throws
    -> ProgramResult
{
    try await runProgram(
        prefix + [CommandLine.arguments[0], "--testing-library", "swift-testing", "--filter", filter],
        environment: environment)
}

/// Runs `body` in a child process, for tests whose regression would crash the process: the test binary runs again
/// with only the calling test, `body` runs there for the calling test case, and a crash fails this one test case
/// instead of killing the run.
///
/// ```swift
/// @Test(arguments: TransportKind.allCases) func lyingContentLengthDoesNotCrash(kind: TransportKind) async throws {
///     try await inChildProcess(case: kind) { try await kind.webservice().load(...) }
/// }
/// ```
///
/// - Parameters:
///   - test: The calling test's function name, which selects it in the child; unique among the suite's tests.
///   - arguments: The calling test case's arguments: the child runs the test's case with these, and its other cases
///     as no-ops.
///   - body: The work, with its expectations; they are checked in the child.
/// - Throws: What `body` throws in the child, or an error starting the child process.
func inChildProcess(test: String = #function, case arguments: Any..., do body: () async throws -> Void)
    async throws
{
    let variable = "RESOURCEKIT_CHILD_TEST"
    let name = String(test.prefix { $0 != "(" })
    let testCase = ([name] + arguments.map { "\($0)" }).joined(separator: " ")
    switch ProcessInfo.processInfo.environment[variable] {
    case testCase?:
        try await body()
    case _?:
        return  // the child of another case of this test
    case nil:
        let child = try await runTestsInChild(filter: "/\(name)\\(", environment: [variable: testCase])
        #expect(child.succeeded, "the child process for \(testCase) failed or crashed:\n\(child.output.suffix(4_000))")
        let ranTests = child.output.contains("Test run with") && !child.output.contains("Test run with 0 tests")
        #expect(ranTests, "the child process ran no test:\n\(child.output.suffix(2_000))")
    }
}
