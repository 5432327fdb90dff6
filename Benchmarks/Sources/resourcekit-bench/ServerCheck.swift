import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `wrk` got from the server alone for one file and connection count.
struct WrkFigure: Sendable {
    var requestsPerSecond: Double
    var megabytesPerSecond: Double
}

/// The server's own throughput, measured with `wrk` before any client runs, to show that the server is not what
/// limits the clients' figures.
struct ServerFigures: Sendable {
    var smallSequential: WrkFigure
    var smallConcurrent: WrkFigure
    var bigSequential: WrkFigure
    var bigConcurrent: WrkFigure

    enum Unit {
        case requests
        case megabytes
    }

    /// Runs `wrk -t1 -c1` and `wrk -t1 -c64` against small.json and big.json, and prints the figures; returns `nil`
    /// when `wrk` isn't installed.
    static func measure(options: Options, report: Report) throws -> ServerFigures? {
        report.heading("Server alone: nginx measured with wrk (-t1, \(options.wrkSeconds) s each)")
        guard let wrk = Subprocess.find("wrk") else {
            print(
                "   wrk is not installed, so the server's own throughput is not shown (Benchmarks/run.sh installs it)")
            return nil
        }
        func run(_ endpoint: Endpoint, connections: Int) throws -> WrkFigure {
            let arguments = [
                "-t1", "-c\(connections)", "-d\(options.wrkSeconds)s", options.url(endpoint.rawValue).absoluteString,
            ]
            let output = try Subprocess.run(wrk, arguments: arguments)
            guard let requests = value(after: "Requests/sec:", in: output),
                let transfer = value(after: "Transfer/sec:", in: output), let bytes = bytes(transfer)
            else {
                throw BenchError("couldn't read wrk's output for \(endpoint.rawValue):\n\(output)")
            }
            if let errors = value(after: "Non-2xx or 3xx responses:", in: output) {
                throw BenchError("wrk got \(errors) error responses for \(endpoint.rawValue); is the server right?")
            }
            return WrkFigure(requestsPerSecond: Double(requests) ?? .nan, megabytesPerSecond: bytes / 1_000_000)
        }
        let figures = ServerFigures(
            smallSequential: try run(.small, connections: 1),
            smallConcurrent: try run(.small, connections: 64),
            bigSequential: try run(.big, connections: 1),
            bigConcurrent: try run(.big, connections: 64))
        let rows = [
            ("small.json", 1, figures.smallSequential), ("small.json", 64, figures.smallConcurrent),
            ("big.json", 1, figures.bigSequential), ("big.json", 64, figures.bigConcurrent),
        ].map { file, connections, figure in
            [
                file, "\(connections)", Format.number(figure.requestsPerSecond, decimals: 0) + " req/s",
                Format.number(figure.megabytesPerSecond, decimals: 1) + " MB/s",
            ]
        }
        Table.print(header: ["file", "connections", "requests", "transfer"], rows: rows)
        return figures
    }

    /// A table row with the server's figure, to stand under the clients'.
    func row(_ key: KeyPath<ServerFigures, WrkFigure>, _ file: String, connections: Int, unit: Unit) -> [String] {
        ["nginx alone (wrk -t1 -c\(connections) \(file))", Self.text(self[keyPath: key], unit)]
    }

    /// How close the faster client came to the server's own figure; `work` is requests or bytes per round.
    func headroom(
        _ key: KeyPath<ServerFigures, WrkFigure>,
        unit: Unit,
        client times: (library: [Double], raw: [Double]),
        work: Int
    ) -> String {
        let fastest = min(Samples(values: times.library).median, Samples(values: times.raw).median)
        let server = self[keyPath: key]
        let client = unit == .requests ? Double(work) / fastest : Double(work) / fastest / 1_000_000
        let serverValue = unit == .requests ? server.requestsPerSecond : server.megabytesPerSecond
        let share = client / serverValue
        let verdict = share > 0.5 ? "WARNING: the server may be what limits the clients" : "the server is not the limit"
        return "server check: the faster client reached \(Format.number(share * 100, decimals: 1))% of nginx's "
            + "\(Self.text(server, unit)) — \(verdict)"
    }

    /// The size of an endpoint's body, from a GET with URLSession.
    static func size(of endpoint: Endpoint, options: Options) async throws -> Int {
        try await download(endpoint, options: options).count
    }

    private static func text(_ figure: WrkFigure, _ unit: Unit) -> String {
        switch unit {
        case .requests: Format.number(figure.requestsPerSecond, decimals: 0) + " req/s"
        case .megabytes: Format.number(figure.megabytesPerSecond, decimals: 1) + " MB/s"
        }
    }

    private static func value(after label: String, in output: String) -> String? {
        for line in output.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(label) {
                return trimmed.dropFirst(label.count).trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// wrk's transfer rate, such as `1.23GB` (binary units), in bytes.
    private static func bytes(_ text: String) -> Double? {
        let units = [("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * Double(factor) }
        }
        return nil
    }
}

/// Runs other programs and captures their standard output.
enum Subprocess {
    /// The program named `name` in `PATH`.
    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Runs `executable` to completion and returns its standard output.
    ///
    /// It throws when the program exits with another status than 0. Its standard error goes to ours.
    static func run(_ executable: URL, arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BenchError(
                "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed with status "
                    + "\(process.terminationStatus):\n\(text)")
        }
        return text
    }
}
