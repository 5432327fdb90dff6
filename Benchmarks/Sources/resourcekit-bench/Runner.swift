import Foundation

/// The comparison run: the server check, then each selected section, then the summary.
struct Runner {
    var options: Options

    func run() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        let report = Report()
        let sections = Section.allCases.filter(options.sections.contains).map(\.rawValue)
        print(
            """
            ResourceKit benchmarks against \(options.baseURL.absoluteString)
            sections: \(sections.joined(separator: ", ")); \
            \(options.rounds) rounds, interleaved library/raw, alternating which goes first; medians compared
            per round: \(options.sequentialRequests) sequential GETs, \(options.concurrentRequests) GETs \
            (AsyncHTTPClient: \(options.fastConcurrentRequests)) \(options.inFlightWidth) in flight, \
            \(options.bigLoads) × 5 MB decode, \(options.byteLoads) × 5 MB bytes, \(options.parses) parses\
            \(options.quick ? " (--quick)" : "")
            """)
        print(Machine.report(busy: await Machine.busyShare(over: 1), when: "before the run"))
        if !options.sections.isSubset(of: [.cache, .headers]) {
            try await checkServer()
        }

        var server: ServerFigures?
        if options.sections.contains(.urlsession) || options.sections.contains(.ahc) {
            server = try ServerFigures.measure(options: options, report: report)
        }
        if options.sections.contains(.urlsession) {
            try await NetworkShapes.run(
                URLSessionClients.pair(options: options), options: options, server: server, report: report)
        }
        if options.sections.contains(.parse) {
            let data: Data
            if let fixtures = options.fixtures {
                data = try Data(contentsOf: fixtures.appendingPathComponent(Endpoint.big.rawValue))
            } else {
                data = try await download(.big, options: options)
            }
            try await ParseShape.run(data: data, options: options, report: report)
            let small = try await download(.small, options: options)
            try await OverheadShape.run(small: small, options: options, report: report)
            try await MiddlewareShape.run(small: small, options: options, report: report)
        }
        if options.sections.contains(.ahc) {
            try await ClientPair.with("ahc", options: options) { pair in
                try await NetworkShapes.run(pair, options: options, server: server, report: report)
            }
            try await NetworkShapes.run(
                AsyncHTTPClientClients.defaultsPair(options: options), options: options, server: server,
                report: report)
        }
        if options.sections.contains(.openapi) {
            try await OpenAPIShape.run(options: options, server: server, report: report)
        }
        if options.sections.contains(.memory) {
            try await Memory.run(options: options, report: report)
        }
        if options.sections.contains(.cache) {
            try await CacheShape.run(options: options, report: report)
        }
        if options.sections.contains(.headers) {
            try await HeaderFieldsShape.run(options: options, report: report)
        }
        if options.sections.contains(.diskcache) {
            try await DiskCacheShape.run(options: options, report: report)
        }
        if options.sections.contains(.streams) {
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                try await StreamShapes.run(options: options, report: report)
            } else {
                print("streams: skipped, as ResourceKit's streams need macOS 15")
            }
        }
        if options.sections.contains(.settings) {
            try await SettingsShape.run(options: options, report: report)
        }
        if options.sections.contains(.instructions) {
            try await Instructions.run(options: options, report: report)
        }
        report.printSummary()
        print(Machine.report(busy: nil, when: "after the run"))
        print("Total time: \(Format.number((clock.now - started).seconds, decimals: 1)) s")
    }

    /// Throws unless the server answers with the small fixture.
    private func checkServer() async throws {
        do {
            _ = try await download(.small, options: options)
        } catch {
            let reason = (error as? URLError)?.userInfo[NSLocalizedDescriptionKey] as? String ?? "\(error)"
            throw BenchError(
                "can't load \(options.url(Endpoint.small.rawValue).absoluteString) (\(reason)); start the server "
                    + "with Benchmarks/run.sh, or pass the base URL of one that serves the generated fixtures")
        }
    }
}
