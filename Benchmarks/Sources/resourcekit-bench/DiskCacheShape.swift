import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `ResponseCache(directory:)`: a stored response served from disk, against one served from memory and against the
/// same load from the server, for a 2 KB body (`small.json`) and a 5 MB one (`big5.bin`).
///
/// The resources ask for ``CachePolicy/storedElseNetwork``, so that a stored response answers whatever its age. A disk
/// hit opens the entry's file, reads and checks every byte of it; a memory hit copies nothing.
enum DiskCacheShape {
    static func run(options: Options, report: Report) async throws {
        report.heading("Disk cache: a hit from disk against one from memory and a load from the server")
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("resourcekit-bench-disk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = Webservice(cache: try ResponseCache(directory: directory, byteLimit: 100_000_000))
        let memory = Webservice(cache: ResponseCache(byteLimit: 100_000_000))
        let network = Webservice()
        for (endpoint, loads) in [(Endpoint.small, options.quick ? 100 : 500), (.big5, options.quick ? 4 : 20)] {
            var resource = Resource<Int>(url: options.url(endpoint.rawValue), parse: { $0.count })
            resource.cachePolicy = .storedElseNetwork
            let size = endpoint == .small ? "2 KB" : "5 MB"
            _ = try await disk.load(resource)
            _ = try await memory.load(resource)
            var samples: [String: [Double]] = [:]
            let clock = ContinuousClock()
            for _ in 0..<options.rounds {
                for (name, service) in [("disk", disk), ("memory", memory), ("network", network)] {
                    let elapsed = try await clock.measure {
                        for _ in 0..<loads { _ = try await service.load(resource) }
                    }
                    samples[name, default: []].append(elapsed.seconds * 1_000_000 / Double(loads))
                }
            }
            let diskHit = Samples(values: samples["disk"] ?? [])
            for (other, target) in [("memory", Target.atLeast(0)), ("network", Target.atLeast(1))] {
                report.add(
                    Comparison(
                        section: "Disk cache",
                        shape: "\(size) disk hit ÷ \(other == "memory" ? "memory hit" : "network load")",
                        unit: "µs", decimals: 1, libraryName: "disk hit",
                        rawName: other == "memory" ? "memory hit" : "load from the server", library: diskHit,
                        raw: Samples(values: samples[other] ?? []), better: .lower, target: target))
            }
        }
        try await reopen(options: options, report: report)
    }

    /// The time to open a directory of 10 000 entries of 2 KB: listing it and reading each file's size and time.
    private static func reopen(options: Options, report: Report) async throws {
        let entries = 10_000
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("resourcekit-bench-reopen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let cache = try ResponseCache(directory: directory, byteLimit: 100_000_000)
            let transport = CacheShape.InMemoryTransport(
                small: Data(repeating: 0x61, count: 2_048), large: Data(),
                response: try cacheableResponse(options.baseURL))
            let webservice = Webservice(transport: transport, cache: cache)
            for index in 0..<entries {
                _ = try await webservice.load(Resource(url: options.url("entry/\(index)"), parse: { $0.count }))
            }
            guard await cache.count == entries else { throw BenchError("the cache didn't hold \(entries) entries") }
        }
        let clock = ContinuousClock()
        var opens: [Double] = []
        for _ in 0..<options.rounds {
            opens.append(
                try clock.measure { _ = try ResponseCache(directory: directory, byteLimit: 100_000_000) }.seconds
                    * 1000)
        }
        let median = Samples(values: opens).median
        print("   reopening \(entries) entries of 2 KB: \(Format.number(median, decimals: 1)) ms (median)")
        report.addSummaryLine(
            SummaryLine(
                section: "Disk cache", shape: "reopen \(entries) entries (diagnostic)",
                definition: "milliseconds", ratio: median, target: "-", passes: true, kind: .info))
    }

    /// A `200` response for `url` that may be stored for an hour.
    private static func cacheableResponse(_ url: URL) throws -> HTTPURLResponse {
        guard
            let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Cache-Control": "max-age=3600"])
        else { throw BenchError("can't make an HTTPURLResponse for \(url)") }
        return response
    }
}
