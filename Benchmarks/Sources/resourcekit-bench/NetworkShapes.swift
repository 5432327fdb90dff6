import Foundation
import ResourceKit

/// A file on the benchmark server.
enum Endpoint: String, CaseIterable, Sendable {
    /// About 2 KB of JSON: a few items.
    case small = "small.json"
    /// About 5 MB of JSON: ``Fixtures/bigCount`` items.
    case big = "big.json"
    /// 5 MB of bytes.
    case big5 = "big5.bin"
    /// 2 MiB of bytes, loaded many at once.
    case big2 = "big2.bin"
    /// 50 MB of bytes.
    case huge = "huge.bin"

    var expectedItems: Int? {
        switch self {
        case .small: Fixtures.smallCount
        case .big: Fixtures.bigCount
        case .big5, .big2, .huge: nil
        }
    }
}

/// What a load returned: the decoded items for JSON, the body for bytes.
enum Loaded: Sendable {
    case items([Item])
    case bytes(Data)
    /// The number of items a generated OpenAPI client decoded into its own type.
    case generated(Int)

    /// The number of items or bytes.
    var count: Int {
        switch self {
        case .items(let items): items.count
        case .bytes(let data): data.count
        case .generated(let count): count
        }
    }
}

/// The library and its raw baseline over one HTTP client.
///
/// Each closure loads an endpoint and returns what it loaded, checked: a wrong answer can't go unnoticed, and nothing
/// is optimized away.
struct ClientPair: Sendable {
    var section, libraryName, rawName: String
    /// The library ÷ raw ratio the pair's shapes must reach.
    var target: Target
    /// The ratio for small GETs with 64 in flight, when it differs from ``target``: above 1 where the library's own
    /// client settings are compared with the raw client's defaults.
    var inFlightTarget: Target?
    /// Whether the pair also runs the 5 MB shapes, or only the small GETs.
    var largeBodies = true
    /// Whether the client is AsyncHTTPClient, which takes ``Options/fastConcurrentRequests`` per round.
    var isFast = false
    var library: @Sendable (Endpoint) async throws -> Loaded
    var raw: @Sendable (Endpoint) async throws -> Loaded

    /// A pair whose library variant loads the endpoints' ``LibraryResources`` with `webservice`.
    init(
        _ section: String,
        library libraryName: String,
        with webservice: Webservice,
        versus rawName: String,
        target: Target,
        inFlightTarget: Target? = nil,
        options: Options,
        raw: @escaping @Sendable (Endpoint) async throws -> Loaded
    ) {
        let resources = LibraryResources(options: options)
        self.init(
            section, library: libraryName, versus: rawName, target: target, inFlightTarget: inFlightTarget,
            library: { endpoint in try await resources.load(endpoint, with: webservice) }, raw: raw)
    }

    /// A pair of two loading functions.
    init(
        _ section: String,
        library libraryName: String,
        versus rawName: String,
        target: Target,
        inFlightTarget: Target? = nil,
        library: @escaping @Sendable (Endpoint) async throws -> Loaded,
        raw: @escaping @Sendable (Endpoint) async throws -> Loaded
    ) {
        self.section = section
        self.libraryName = libraryName
        self.rawName = rawName
        self.target = target
        self.inFlightTarget = inFlightTarget
        self.library = library
        self.raw = raw
    }
}

extension ClientPair {
    /// Runs `body` with the pair of the client named `client` (`urlsession`, `ahc` or `openapi`, as the child
    /// processes name them), then shuts down the client it made.
    static func with(_ client: String, options: Options, _ body: (ClientPair) async throws -> Void) async throws {
        switch client {
        case "urlsession":
            try await body(URLSessionClients.pair(options: options))
        case "ahc", "openapi":
            let made = AsyncHTTPClientClients.makeClient()
            do {
                try await body(
                    client == "ahc"
                        ? AsyncHTTPClientClients.pair(options: options, client: made)
                        : OpenAPIShape.pair(options: options, client: made))
            } catch {
                try? await made.shutdown()
                throw error
            }
            try await made.shutdown()
        default:
            throw BenchError("unknown client \(client): urlsession, ahc or openapi")
        }
    }
}

/// Returns `items` unless their number is not the one `endpoint` holds.
func check(_ items: [Item], _ endpoint: Endpoint) throws -> Loaded {
    guard items.count == endpoint.expectedItems else {
        throw BenchError("\(endpoint.rawValue): expected \(endpoint.expectedItems ?? 0) items, got \(items.count)")
    }
    return .items(items)
}

/// The network shapes, the same for every client pair: sequential small GETs, small GETs with 64 in flight, one
/// 5 MB JSON body decoded, and one 5 MB body as bytes.
enum NetworkShapes {

    static func run(_ pair: ClientPair, options: Options, server: ServerFigures?, report: Report) async throws {
        report.heading("\(pair.section): \(pair.libraryName) vs \(pair.rawName)")
        // Each variant answers correctly before anything is timed.
        for endpoint in pair.largeBodies ? [Endpoint.small, .big, .big5] : [.small] {
            let library = try await pair.library(endpoint).count
            let raw = try await pair.raw(endpoint).count
            guard library == raw else {
                throw BenchError("\(endpoint.rawValue): the library got \(library), the raw client \(raw)")
            }
        }

        // The server's own figures, when wrk measured them, to stand under the clients'.
        func serverRow(_ key: KeyPath<ServerFigures, WrkFigure>, _ file: String, connections: Int) -> [[String]] {
            let unit: ServerFigures.Unit = file == "big.json" ? .megabytes : .requests
            return server.map { [$0.row(key, file, connections: connections, unit: unit)] } ?? []
        }
        func headroom(
            _ key: KeyPath<ServerFigures, WrkFigure>,
            _ unit: ServerFigures.Unit,
            _ times: (library: [Double], raw: [Double]),
            work: Int
        ) -> [String] {
            server.map { [$0.headroom(key, unit: unit, client: times, work: work)] } ?? []
        }

        // `count` loads of `endpoint` per round, the library's and the raw client's paired one by one.
        func timeLoads(of endpoint: Endpoint, count: Int) async throws -> (library: [Double], raw: [Double]) {
            try await Interleaved.pairs(
                rounds: options.rounds, count: count,
                library: { _ = try await pair.library(endpoint) },
                raw: { _ = try await pair.raw(endpoint) })
        }

        let sequential = options.sequentialRequests
        var times = try await timeLoads(of: .small, count: sequential)
        report.add(
            comparison(pair, "sequential small GETs (\(sequential) per round)", times, work: Double(sequential)),
            extraRows: serverRow(\.smallSequential, "small.json", connections: 1),
            notes: headroom(\.smallSequential, .requests, times, work: sequential))

        let concurrent = pair.isFast ? options.fastConcurrentRequests : options.concurrentRequests
        let width = options.inFlightWidth
        times = try await Interleaved.batches(
            rounds: options.rounds,
            library: { try await inFlight(concurrent, width: width) { _ = try await pair.library(.small) } },
            raw: { try await inFlight(concurrent, width: width) { _ = try await pair.raw(.small) } })
        report.add(
            comparison(
                pair, "small GETs, \(width) in flight (\(concurrent) per round)", times, work: Double(concurrent),
                target: pair.inFlightTarget),
            extraRows: serverRow(\.smallConcurrent, "small.json", connections: width),
            notes: headroom(\.smallConcurrent, .requests, times, work: concurrent))

        guard pair.largeBodies else { return }
        let bigBytes = try await ServerFigures.size(of: .big, options: options)
        let big5Bytes = try await ServerFigures.size(of: .big5, options: options)
        let loads = options.bigLoads
        times = try await timeLoads(of: .big, count: loads)
        let big = comparison(
            pair, "one 5 MB JSON GET + decode (\(loads) per round)", times, work: Double(loads * bigBytes) / 1_000_000,
            unit: "MB/s", decimals: 1)
        let perLoad = "library \(milliseconds(times.library, per: loads)), raw \(milliseconds(times.raw, per: loads))"
        let size = "\(Format.number(Double(bigBytes), decimals: 0)) bytes, \(Fixtures.bigCount) items"
        report.add(
            big,
            extraRows: serverRow(\.bigSequential, "big.json", connections: 1),
            notes: ["\(size); per load: \(perLoad)"]
                + headroom(\.bigSequential, .megabytes, times, work: loads * bigBytes))

        let byteLoads = options.byteLoads
        times = try await timeLoads(of: .big5, count: byteLoads)
        let bytes = comparison(
            pair, "one 5 MB GET as Data, no decode (\(byteLoads) per round)", times,
            work: Double(byteLoads * big5Bytes) / 1_000_000, unit: "MB/s", decimals: 1)
        report.add(
            bytes,
            notes: [
                "big5.bin, per load: library \(milliseconds(times.library, per: byteLoads)), "
                    + "raw \(milliseconds(times.raw, per: byteLoads)); isolates the transport from the decode",
                "no server check here: wrk's one thread reads 5 MB bodies about as fast as these clients do, so its "
                    + "figure bounds wrk, not nginx (which sends them with sendfile)",
            ])

        try await manyLargeBodies(pair, options: options, report: report)
    }

    /// Many 2 MiB bodies at once, while a task sleeps 10 ms in a loop: the throughput, and how late the sleeper woke
    /// up at worst, which shows whether the client keeps the process's Swift tasks waiting.
    private static func manyLargeBodies(_ pair: ClientPair, options: Options, report: Report) async throws {
        let (total, width) = (options.manyLargeLoads, 32)
        let big2Bytes = try await ServerFigures.size(of: .big2, options: options)
        var seconds: (library: [Double], raw: [Double]) = ([], [])
        var lateness: (library: [Double], raw: [Double]) = ([], [])
        // One untimed batch of each first, then the rounds, alternating which goes first.
        for round in -1..<options.rounds {
            for libraryFirst in round.isMultiple(of: 2) ? [true, false] : [false, true] {
                let load = libraryFirst ? pair.library : pair.raw
                let (time, late) = try await Heartbeat.during {
                    try await inFlight(total, width: width) { _ = try await load(.big2) }
                }
                guard round >= 0 else { continue }
                if libraryFirst {
                    seconds.library.append(time)
                    lateness.library.append(late * 1000)
                } else {
                    seconds.raw.append(time)
                    lateness.raw.append(late * 1000)
                }
            }
        }
        let shape = "\(total) × 2 MiB GETs as Data, \(width) in flight"
        report.add(
            comparison(
                pair, "\(shape) (\(total) per round)", seconds, work: Double(total * big2Bytes) / 1_000_000,
                unit: "MB/s", decimals: 1, target: .atLeast(0.95)))
        report.add(
            Comparison(
                section: pair.section, shape: "a 10 ms sleeper's worst lateness during the \(shape)", unit: "ms",
                decimals: 1, libraryName: pair.libraryName, rawName: pair.rawName,
                library: Samples(values: lateness.library), raw: Samples(values: lateness.raw), better: .lower,
                target: .atLeast(1 / 1.5)),
            notes: [
                "the target: no later than 1.5 × the raw client's; a client that makes Swift concurrency threads "
                    + "wait (on a lock, a semaphore or a queue another thread holds) stalls every task of the process"
            ])
    }

    /// A throughput comparison from per-round seconds: `work` units per round.
    private static func comparison(
        _ pair: ClientPair,
        _ shape: String,
        _ times: (library: [Double], raw: [Double]),
        work: Double,
        unit: String = "req/s",
        decimals: Int = 0,
        target: Target? = nil
    ) -> Comparison {
        Comparison(
            section: pair.section, shape: shape, unit: unit, decimals: decimals, libraryName: pair.libraryName,
            rawName: pair.rawName, library: Samples(values: times.library.map { work / $0 }),
            raw: Samples(values: times.raw.map { work / $0 }), better: .higher,
            target: target ?? pair.target)
    }

    private static func milliseconds(_ seconds: [Double], per count: Int) -> String {
        Format.number(Samples(values: seconds).median * 1000 / Double(count), decimals: 1) + " ms"
    }
}
