import Foundation

/// Instructions per load, counted by callgrind: the library against its raw baseline, each in a child process.
///
/// Each variant runs twice under `valgrind --tool=callgrind`, with a few and with many loads after the same warm-up;
/// the difference of the two totals, divided by the difference of the loads, is the cost of one load in every thread
/// of the process, without the start-up. Unlike times, these counts repeat on a busy machine.
enum Instructions {
    /// A library variant and its baseline, as the child process names them.
    struct Pair: Sendable {
        var client, libraryName, rawName: String
        /// The target for raw ÷ library, when the instructions are the measure the shape is judged by.
        var target: Target?
    }

    static let pairs = [
        Pair(client: "urlsession", libraryName: "Webservice().load", rawName: "URLSession.shared"),
        Pair(client: "ahc", libraryName: "Webservice(transport: AHC).load", rawName: "HTTPClient.execute + collect"),
        Pair(
            client: "openapi", libraryName: "generated Client over Webservice(transport: AHC)",
            rawName: "generated Client over OpenAPIAsyncHTTPClient"),
        Pair(
            client: "in-memory", libraryName: "Webservice(transport: in-memory).load",
            rawName: "JSONDecoder.decode alone"),
        Pair(
            client: "middleware", libraryName: "in-memory load, \(MiddlewareShape.count) no-op middleware",
            rawName: "in-memory load, no middleware", target: MiddlewareShape.target),
        Pair(
            client: "metrics", libraryName: "in-memory load, LoadMetrics (no-op factory)",
            rawName: "in-memory load, no middleware", target: TelemetryShape.metricsTarget),
        Pair(
            client: "logging", libraryName: "in-memory load, LoadLogging (no-op handler, info)",
            rawName: "in-memory load, no middleware"),
    ]

    static let usage =
        "usage: resourcekit-bench instructions urlsession|ahc|openapi|in-memory|middleware|metrics|logging library|raw LOADS BASE_URL"

    static func run(options: Options, report: Report) async throws {
        guard let valgrind = Subprocess.find("valgrind"), let objcopy = Subprocess.find("objcopy") else {
            throw BenchError(
                "--instructions needs valgrind and objcopy: apt-get install valgrind binutils (Benchmarks/run.sh does)")
        }
        // Swift seeds string hashing per process, which changes the dictionary probes of every JSON decode: children
        // with a fixed seed count the same instructions for the same work (±3 000 per load without it).
        setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
        let (few, many) = options.quick ? (5, 25) : (20, 320)
        report.heading("Instructions per small.json load, counted by callgrind (all threads)")
        print(
            """
               Each variant runs in a child under valgrind --tool=callgrind, once with \(few) and once with \(many) \
            loads after 10 untimed ones; per load = (instructions with \(many) − with \(few)) ÷ \(many - few).
            """)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "resourcekit-bench-callgrind-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A copy without debug information: valgrind 3.19 can't read the DWARF 5 that Swift writes.
        let executable = directory.appendingPathComponent("resourcekit-bench")
        _ = try Subprocess.run(objcopy, arguments: ["--strip-debug", try Memory.executable().path, executable.path])
        func perLoad(_ client: String, _ kind: String) throws -> Double {
            let totals = try [few, many].map { loads in
                let file = directory.appendingPathComponent("\(client)-\(kind)-\(loads).out")
                _ = try Subprocess.run(
                    valgrind,
                    arguments: [
                        "--tool=callgrind", "-q", "--callgrind-out-file=\(file.path)", executable.path,
                        "instructions", client, kind, "\(loads)", options.baseURL.absoluteString,
                    ])
                return try total(in: file)
            }
            return (totals[1] - totals[0]) / Double(many - few)
        }
        var rows: [[String]] = []
        for pair in pairs {
            let library = try perLoad(pair.client, "library")
            let raw = try perLoad(pair.client, "raw")
            rows.append([pair.libraryName, Format.number(library, decimals: 0), "", ""])
            rows.append([
                pair.rawName, Format.number(raw, decimals: 0), Format.number(library - raw, decimals: 0),
                Format.number(raw / library, decimals: 3),
            ])
            report.addSummaryLine(
                SummaryLine(
                    section: "Instructions", shape: "small.json, \(pair.libraryName)",
                    definition: "raw ÷ library (instr.)", ratio: raw / library, target: pair.target?.text ?? "—",
                    passes: pair.target?.passes(raw / library) ?? true, kind: pair.target == nil ? .info : .verdict))
        }
        Table.print(header: ["variant", "instructions per load", "library − raw", "raw ÷ library"], rows: rows)
    }

    /// The total instructions a callgrind output file records.
    private static func total(in file: URL) throws -> Double {
        let text = try String(contentsOf: file, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let value = line.split(separator: " ").last.flatMap({ Double($0) }) { return value }
        }
        throw BenchError("no totals in \(file.path)")
    }

    /// The child: 10 untimed loads of small.json with one variant, then `LOADS` more.
    static func child(arguments: [String]) async throws {
        guard arguments.count == 4, ["library", "raw"].contains(arguments[1]), let loads = Int(arguments[2]) else {
            throw BenchError(usage)
        }
        let options = try Options(arguments: [arguments[3]])
        let library = arguments[1] == "library"
        if ["in-memory", "middleware", "metrics", "logging"].contains(arguments[0]) {
            let small = try await download(.small, options: options)
            let variants: (library: @Sendable () async throws -> Void, raw: @Sendable () async throws -> Void) =
                switch arguments[0] {
                case "middleware": try MiddlewareShape.variants(small: small, options: options)
                case "metrics":
                    try MiddlewareShape.variants(small: small, options: options, middleware: [TelemetryShape.metrics])
                case "logging":
                    try MiddlewareShape.variants(small: small, options: options, middleware: [TelemetryShape.logging])
                default: try OverheadShape.variants(small: small, options: options)
                }
            for _ in 0..<(10 + loads) {
                if library { try await variants.library() } else { try await variants.raw() }
            }
            return
        }
        try await ClientPair.with(arguments[0], options: options) { pair in
            let load = library ? pair.library : pair.raw
            for _ in 0..<(10 + loads) { _ = try await load(.small) }
        }
    }
}
