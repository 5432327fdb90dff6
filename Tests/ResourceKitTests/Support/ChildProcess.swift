import Dispatch
import Foundation
import Testing

/// Runs work that would kill the process on a regression, such as a stack overflow, in a child process, so a crash
/// fails one test instead of ending the run.
///
/// The test calls ``run(_:sourceLocation:_:)`` with a name for its case and the dangerous work. In the test run, it
/// starts the test binary again with `--filter` for this test and `RESOURCEKIT_CHILD_CASE=<case>`, waits for it, and
/// returns how it ended and what the work returned there. In that child it does the work if the case is the one asked
/// for, prints the result, and returns `nil`, so the test's assertions run only in the parent:
///
/// ```swift
/// @Test func deepBodyThrows() async throws {
///     guard let child = try await ChildProcess.run("deep", { try parse(deepBody) }) else { return }
///     #expect(child.exitedNormally, "\(child.output)")
///     #expect(child.result == "nestingTooDeep")
/// }
/// ```
enum ChildProcess {
    /// The environment variable that names the case a child process runs.
    static let caseVariable = "RESOURCEKIT_CHILD_CASE"
    /// The environment variable that carries the parent's `argument` to a child.
    static let argumentVariable = "RESOURCEKIT_CHILD_ARGUMENT"

    /// In a child, the `argument` its parent passed to ``run(_:argument:killedWhen:sourceLocation:_:)``, such as a
    /// directory the test made.
    static var argument: String? { ProcessInfo.processInfo.environment[argumentVariable] }
    /// How many seconds a child may run before it is killed, so a hang fails the test instead of stalling the run.
    ///
    /// It is not a measure of speed: a child that passes takes about a second.
    static let watchdog = 120

    /// The prefix of the line on which a child reports the work's result.
    private static let resultPrefix = "RESOURCEKIT_CHILD_RESULT: "

    /// How a child process ended.
    struct Outcome {
        /// The exit status, or the signal that ended the process.
        var status: Int32
        /// Whether a signal, such as `SIGSEGV` or `SIGILL` from a crash, ended the process, or the watchdog's `SIGKILL`
        /// when the child was still running after ``ChildProcess/watchdog`` seconds.
        var crashed: Bool
        /// What `work` returned in the child, or `"threw <error>"`; `nil` if the child never got that far.
        var result: String?
        /// Everything the child wrote to standard output and standard error.
        var output: String

        /// Whether the child ran to the end with exit status 0: its copy of the test passed and nothing crashed.
        var exitedNormally: Bool { !crashed && status == 0 }
    }

    /// In the test run, runs `work` for `childCase` in a child process and returns how it went; in a child, runs
    /// `work` if the child is for `childCase`, reports its result, and returns `nil`.
    ///
    /// The child reads `argument` as ``argument``. The parent awaits `killedWhen`, if given, while the child runs; when
    /// it returns, the child, if it is still running, is killed with `SIGKILL`, as a crash would end it.
    static func run(
        _ childCase: String,
        argument: String? = nil,
        killedWhen: (@Sendable () async -> Void)? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ work: () async throws -> String
    ) async throws -> Outcome? {
        if let runningCase = ProcessInfo.processInfo.environment[caseVariable] {
            guard runningCase == childCase else { return nil }
            _ = exitWhenOrphaned
            let result: String
            do {
                result = try await work()
            } catch {
                result = "threw \(error)"
            }
            print(resultPrefix + result.replacingOccurrences(of: "\n", with: " "))
            return nil
        }
        let test = try #require(Test.current, "ChildProcess.run needs a running test", sourceLocation: sourceLocation)
        // The ID names the suite and the function, such as `ResourceKitTests.Suite/test(arguments:)`.
        let id = test.id.description.split(separator: "/").prefix(2).joined(separator: "/")
        let filter = NSRegularExpression.escapedPattern(for: id)
        return try await launch(filter: filter, childCase: childCase, argument: argument, killedWhen: killedWhen)
    }

    /// In a child, ends the process once its parent is gone, such as a test run that crashed, whose watchdog went with
    /// it: no child outlives the run (one left writing a cache file spun for most of an hour).
    private static let exitWhenOrphaned: Void = {
        let parent = getppid()
        Thread.detachNewThread {
            while getppid() == parent { usleep(200_000) }
            _exit(70)
        }
    }()

    /// Starts this test binary for the tests `filter` matches, with `childCase` and `argument` in the environment,
    /// kills it once `killedWhen` returns, and waits for it.
    private static func launch(
        filter: String,
        childCase: String,
        argument: String?,
        killedWhen: (@Sendable () async -> Void)?
    ) async throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        var environment = ProcessInfo.processInfo.environment
        environment[caseVariable] = childCase
        environment[argumentVariable] = argument
        environment["SWIFT_BACKTRACE"] = "enable=no"  // a crash ends the child at once, without a long backtrace
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(watchdog)) {
            // A child that has exited is never running again, so its id, which may be reused, is left alone.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        let killer = killedWhen.map { killedWhen in
            Task {
                await killedWhen()
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
        }
        defer { killer?.cancel() }
        // Reading and waiting block, so they happen on a Dispatch queue rather than on Swift's cooperative threads.
        let output = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
        let result = output.split(separator: "\n").last { $0.hasPrefix(resultPrefix) }.map {
            String($0.dropFirst(resultPrefix.count))
        }
        return Outcome(
            status: process.terminationStatus,
            crashed: process.terminationReason == .uncaughtSignal,
            result: result,
            output: output
        )
    }
}
