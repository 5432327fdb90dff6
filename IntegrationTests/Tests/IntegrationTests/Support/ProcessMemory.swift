import Foundation
import Testing

/// A field of `/proc/self/status` in bytes, such as `VmRSS` (resident now) or `VmHWM` (the most resident yet), or `nil`
/// where there is no such file.
func processMemory(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
    let kilobytes = line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    return kilobytes.map { $0 * 1024 }
}

/// How far a child process's peak resident memory (`VmHWM`) rose above what was resident before it ran `work`.
///
/// The same test runs twice. In the parent, `serve` starts a server and this runs the test `test` for `kind` in a
/// child process (this test binary, filtered to the test, with `MEMORY_PROBE` set to the kind and `base / path`),
/// prints the figure for the notes and returns it. In the child, this runs `work` with that URL, prints the figure
/// and returns `nil`, and the test returns at once; no other test's allocations show in the peak.
func peakMemoryGrowth(
    test: String,
    kind: TransportKind,
    path: String,
    serve: ((URL) async throws -> Void) async throws -> Void,
    work: (URL) async throws -> Void
) async throws -> Int? {
    if let probe = ProcessInfo.processInfo.environment["MEMORY_PROBE"] {
        let fields = probe.split(separator: " ").map(String.init)
        guard fields.count == 2, fields[0] == kind.rawValue, let url = URL(string: fields[1]) else { return nil }
        let before = try #require(processMemory("VmRSS"))
        try await work(url)
        let peak = try #require(processMemory("VmHWM"))
        print("memory-probe growth=\(peak - before) before=\(before) peak=\(peak)")
        return nil
    }
    var output = ""
    try await serve { base in
        let child = try await runTestsInChild(filter: test, environment: ["MEMORY_PROBE": "\(kind) \(base / path)"])
        #expect(child.succeeded, "the child failed:\n\(child.output)")
        output = child.output
    }
    let line = output.split(separator: "\n").first { $0.hasPrefix("memory-probe ") }
    let growth = line?.split(separator: " ").first { $0.hasPrefix("growth=") }?.dropFirst("growth=".count)
    let figure = try #require(growth.flatMap { Int($0) }, "no figure from the child:\n\(output)")
    print("\(test)(\(kind)): peak resident memory grew \(figure / 1024) KiB")  // the figure for the notes
    return figure
}
