import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `ResponseCache` eviction: storing one response that needs the room of N small ones, against storing those N.
///
/// Both go through `Webservice.load` with an in-memory transport and `Cache-Control: max-age` responses, so no
/// network is involved. The cache holds exactly N small responses; the large one then evicts all of them. With
/// eviction in constant time per entry, the large store costs about what N small ones do, and ten times the N costs
/// ten times the time; a scan per evicted entry makes it quadratic.
enum CacheShape {
    static let target = Target.atLeast(1.0)

    /// Answers `…/small/…` with a few bytes and `…/large` with ``large``, both cacheable for an hour.
    struct InMemoryTransport: Transport {
        var small, large: Data
        var response: HTTPURLResponse

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            (try Response(response), ResponseBody(request.url.lastPathComponent == "large" ? large : small))
        }
    }

    static func run(options: Options, report: Report) async throws {
        let sizes = [1_000, 10_000]
        report.heading("Cache: evicting N small responses to store one large one (in memory, no network)")
        let base = try url("http://bench.invalid")
        let headers = ["Cache-Control": "max-age=3600", "Content-Type": "application/octet-stream"]
        guard let response = HTTPURLResponse(url: base, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw BenchError("can't make an HTTPURLResponse for \(base)") }
        let small = Data(repeating: 0x61, count: 100)
        let smallURL = { (index: Int) in try url(base.absoluteString + "/small/" + String(format: "%06d", index)) }
        let largeURL = try url(base.absoluteString + "/large")
        let count = Resource<Int>(url: base, parse: { $0.count })

        // What one small response costs the cache; the large one differs only in its URL and body.
        let probe = ResponseCache(byteLimit: 1_000_000)
        let probing = InMemoryTransport(small: small, large: Data(), response: response)
        _ = try await Webservice(transport: probing, cache: probe).load(with(count, url: try smallURL(0)))
        let smallCost = await probe.byteCount
        let largeOverhead =
            smallCost - small.count - (try smallURL(0)).absoluteString.utf8.count
            + largeURL.absoluteString.utf8.count

        var evictions: [Int: Samples] = [:]
        for size in sizes {
            let limit = size * smallCost
            let transport = InMemoryTransport(
                small: small, large: Data(count: limit - largeOverhead), response: response)
            let smalls = try (0..<size).map { with(count, url: try smallURL($0)) }
            let large = with(count, url: largeURL)
            let clock = ContinuousClock()
            var fills: [Double] = []
            var stores: [Double] = []
            for _ in 0..<options.rounds {
                let cache = ResponseCache(byteLimit: limit)
                let webservice = Webservice(transport: transport, cache: cache)
                fills.append(
                    try await clock.measure {
                        for resource in smalls { _ = try await webservice.load(resource) }
                    }.seconds)
                guard await cache.count == size else { throw BenchError("the cache didn't hold \(size) responses") }
                stores.append(try await clock.measure { _ = try await webservice.load(large) }.seconds)
                guard await cache.count == 1 else {
                    throw BenchError("the large response didn't replace the \(size) small ones")
                }
            }
            let fill = Samples(values: fills.map { $0 * 1000 })
            let store = Samples(values: stores.map { $0 * 1000 })
            evictions[size] = store
            report.add(
                Comparison(
                    section: "Cache", shape: "store 1 large response after \(size) small ones", unit: "ms",
                    decimals: 2, libraryName: "load 1 large (evicts \(size))",
                    rawName: "load \(size) small (fills the cache)", library: store, raw: fill, better: .lower,
                    target: target))
        }
        if let first = sizes.first, let last = sizes.last, let low = evictions[first], let high = evictions[last] {
            let growth = high.median / low.median
            let scale = Double(last) / Double(first)
            print(
                "   evicting \(last) took \(Format.number(growth, decimals: 1)) × evicting \(first): "
                    + "\(Format.number(scale, decimals: 0)) × is linear, \(Format.number(scale * scale, decimals: 0)) "
                    + "× quadratic")
            report.addSummaryLine(
                SummaryLine(
                    section: "Cache", shape: "eviction growth, N × \(Format.number(scale, decimals: 0)) (diagnostic)",
                    definition: "growth ÷ N's growth", ratio: growth / scale, target: "≈ 1", passes: true,
                    kind: .info))
        }
    }

    private static func url(_ string: String) throws -> URL {
        guard let url = URL(string: string) else { throw BenchError("bad URL \(string)") }
        return url
    }

    private static func with(_ resource: Resource<Int>, url: URL) -> Resource<Int> {
        var resource = resource
        resource.url = url
        return resource
    }
}
