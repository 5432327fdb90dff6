import Foundation

/// An error with a message for the person running the benchmark.
struct BenchError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A section of the run that `--only` can select.
enum Section: String, CaseIterable, Sendable {
    case parse
    case urlsession
    case ahc
    /// A generated OpenAPI client over ResourceKit against the same client over swift-openapi-async-http-client.
    case openapi
    case memory
    case cache
    /// A head of 7 000 header fields against one of 70, per field, through a cache (no server needed).
    case headers
    /// The persistent cache: a hit from disk against one from memory and a load from the server.
    case diskcache
    /// Typed streams: JSON Lines and server-sent events through `Webservice.load(StreamingResource)`.
    case streams
    /// Instructions per load under callgrind: only with `--instructions`, as it takes minutes.
    case instructions
    /// The sweep of connection limits behind ResourceKit's defaults: only with `--only settings`.
    case settings
}

/// The benchmark's settings: what to run, how often, and how much work per round.
struct Options: Sendable {
    var baseURL: URL
    var fixtures: URL?
    var rounds = 9
    var quick = false
    var sections = Set(Section.allCases).subtracting([.instructions, .settings])

    /// Small GETs, one after another, per round.
    var sequentialRequests = 600
    /// Small GETs per round with ``inFlightWidth`` outstanding, through URLSession.
    var concurrentRequests = 3_000
    /// The same through AsyncHTTPClient, which is about five times as fast: rounds of a second or more, as short ones
    /// vary by ±15 % on a shared machine.
    var fastConcurrentRequests = 12_000
    var inFlightWidth = 64
    /// 5 MB GET and decode per round.
    var bigLoads = 6
    /// 5 MB GET as bytes per round.
    var byteLoads = 30
    /// 2 MiB GETs as bytes per round, 32 in flight.
    var manyLargeLoads = 96
    /// 5 MB in-memory parses per round.
    var parses = 5
    /// Loads of small.json through an in-memory transport per round.
    var stubLoads = 2_000
    /// Fresh child processes per memory variant; the table shows their median.
    var memoryRepeats = 3
    /// Requests per round for the time to a stream's first event.
    var firstEvents = 40
    /// Seconds for each `wrk` run.
    var wrkSeconds = 5

    static let usage = """
        usage: resourcekit-bench BASE_URL [--fixtures DIR] [--rounds N] [--quick] [--instructions]
                                 [--only parse|urlsession|ahc|openapi|memory|cache|headers|diskcache|streams|
                                        instructions|settings]
               resourcekit-bench generate DIR [--jsonl-mib N]

        BASE_URL serves small.json, big.json, big5.bin, big2.bin, huge.bin, items.jsonl and events.sse (as made by
        `generate`; items.jsonl has 256 MiB of JSON Lines unless --jsonl-mib says otherwise), e.g. nginx on
        loopback started by Benchmarks/run.sh. --only takes one section or a comma-separated list, and may be repeated.
        `--only cache` and `--only headers` need no server: any BASE_URL will do. --instructions adds callgrind's
        instructions per load (needs valgrind; a few minutes). `--only settings` sweeps the connection limits behind
        the library's defaults.
        """

    init(arguments: [String]) throws {
        var base: URL?
        var rounds: Int?
        var only: Set<Section> = []
        var instructions = false
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--rounds":
                guard let value = remaining.popFirst(), let count = Int(value), count > 0 else {
                    throw BenchError("--rounds needs a positive number\n\n\(Self.usage)")
                }
                rounds = count
            case "--quick":
                quick = true
            case "--instructions":
                instructions = true
            case "--only":
                guard let value = remaining.popFirst() else {
                    throw BenchError("--only needs a section\n\n\(Self.usage)")
                }
                for name in value.split(separator: ",") {
                    guard let section = Section(rawValue: name.lowercased()) else {
                        throw BenchError("unknown section \(name) for --only\n\n\(Self.usage)")
                    }
                    only.insert(section)
                }
            case "--fixtures":
                guard let value = remaining.popFirst() else {
                    throw BenchError("--fixtures needs a directory\n\n\(Self.usage)")
                }
                fixtures = URL(fileURLWithPath: value, isDirectory: true)
            default:
                guard base == nil, !argument.hasPrefix("-"), let url = URL(string: argument), url.scheme != nil,
                    url.host != nil
                else {
                    throw BenchError("unexpected argument \(argument)\n\n\(Self.usage)")
                }
                base = url
            }
        }
        guard let base else { throw BenchError("missing BASE_URL\n\n\(Self.usage)") }
        baseURL = base
        if !only.isEmpty { sections = only }
        if instructions { sections.insert(.instructions) }
        if quick {
            self.rounds = 3
            sequentialRequests = 200
            concurrentRequests = 640
            fastConcurrentRequests = 1_280
            bigLoads = 2
            byteLoads = 6
            parses = 2
            stubLoads = 300
            memoryRepeats = 1
            firstEvents = 10
            wrkSeconds = 2
        }
        if let rounds { self.rounds = rounds }
    }

    func url(_ name: String) -> URL {
        baseURL.appendingPathComponent(name)
    }
}
