import Foundation
import ResourceKit

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
    }
}
