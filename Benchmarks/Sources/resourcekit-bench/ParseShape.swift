import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `resource.parse(data)` against `JSONDecoder.decode` on the 5 MB fixture in memory: the library's cost per parse.
enum ParseShape {
    static let target = Target.atLeast(0.99)

    static func run(data: Data, options: Options, report: Report) async throws {
        report.heading("Parse: the 5 MB fixture in memory (\(Format.number(Double(data.count), decimals: 0)) bytes)")
        let resource = Resource<[Item]>(get: options.url(Endpoint.big.rawValue), decoder: JSONDecoder.items())
        let decoder = JSONDecoder.items()
        guard try resource.parse(data) == decoder.decode([Item].self, from: data) else {
            throw BenchError("resource.parse and JSONDecoder.decode disagree on big.json")
        }
        let parses = options.parses
        let times = try await Interleaved.pairs(
            rounds: options.rounds, count: parses,
            library: { _ = try check(resource.parse(data), .big) },
            raw: { _ = try check(decoder.decode([Item].self, from: data), .big) })
        let comparison = Comparison(
            section: "Parse", shape: "5 MB JSON → [Item] (\(parses) per round)", unit: "ms", decimals: 2,
            libraryName: "resource.parse(data)", rawName: "JSONDecoder.decode([Item].self, from:)",
            library: Samples(values: times.library.map { $0 * 1000 / Double(parses) }),
            raw: Samples(values: times.raw.map { $0 * 1000 / Double(parses) }), better: .lower, target: target)
        report.add(
            comparison,
            notes: [
                "per parse: \(Format.number(Double(data.count) / comparison.library.median / 1000, decimals: 1)) MB/s"
            ])
    }
}

/// The library's own cost per load, without a network.
///
/// `Webservice.load` through a transport that answers from memory, against decoding the same bytes alone. The
/// difference is what building the request, the hops of `load`, the status check and the parse's dispatch cost;
/// every real transport adds its own work on top.
enum OverheadShape {
    static let target = Target.atLeast(0.97)

    struct InMemoryTransport: Transport {
        var body: Data
        var response: HTTPURLResponse

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            (try Response(response), ResponseBody(body))
        }
    }

    /// One load of `small` through an in-memory transport, and one decode of it alone, each checked.
    static func variants(
        small: Data,
        options: Options
    ) throws -> (library: @Sendable () async throws -> Void, raw: @Sendable () throws -> Void) {
        let url = options.url(Endpoint.small.rawValue)
        let headers = ["Content-Type": "application/json", "Content-Length": "\(small.count)"]
        guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw BenchError("can't make an HTTPURLResponse for \(url)") }
        let webservice = Webservice(transport: InMemoryTransport(body: small, response: response))
        let resource = Resource<[Item]>(get: url, decoder: JSONDecoder.items())
        let decoder = JSONDecoder.items()
        return (
            { _ = try check(try await webservice.load(resource), .small) },
            { _ = try check(decoder.decode([Item].self, from: small), .small) }
        )
    }

    static func run(small: Data, options: Options, report: Report) async throws {
        let (library, raw) = try variants(small: small, options: options)
        let loads = options.stubLoads
        let times = try await Interleaved.pairs(rounds: options.rounds, count: loads, library: library, raw: raw)
        let comparison = Comparison(
            section: "Parse", shape: "small.json via in-memory Transport (\(loads) per round)", unit: "µs",
            decimals: 1, libraryName: "Webservice(transport: in-memory).load", rawName: "JSONDecoder.decode alone",
            library: Samples(values: times.library.map { $0 * 1_000_000 / Double(loads) }),
            raw: Samples(values: times.raw.map { $0 * 1_000_000 / Double(loads) }), better: .lower, target: target)
        let overhead = comparison.library.median - comparison.raw.median
        report.add(
            comparison,
            notes: [
                "the library's own overhead: \(Format.number(overhead, decimals: 1)) µs per load (request building, "
                    + "load's hops, status check), before any transport's work"
            ])
    }
}
