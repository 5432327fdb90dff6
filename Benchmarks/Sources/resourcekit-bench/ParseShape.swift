import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `resource.parse(data)` against `JSONDecoder.decode` on the 5 MB fixture in memory: the library's cost per parse.
enum ParseShape {
    static let target = 0.99

    static func run(data: Data, options: Options, report: Report) async throws {
        report.heading("Parse: the 5 MB fixture in memory (\(Format.number(Double(data.count), decimals: 0)) bytes)")
        let resource = Resource<[Item]>(get: options.url(Endpoint.big.rawValue), decoder: JSONDecoder.items())
        let decoder = JSONDecoder.items()
        guard try resource.parse(data, nil) == decoder.decode([Item].self, from: data) else {
            throw BenchError("resource.parse and JSONDecoder.decode disagree on big.json")
        }
        let parses = options.parses
        let times = try await Interleaved.pairs(
            rounds: options.rounds, count: parses,
            library: { _ = try check(resource.parse(data, nil), .big) },
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
/// difference is what building the request, the hops of `load`,
/// the status check and the parse's dispatch cost; every real transport adds its own work on top.
enum OverheadShape {
    struct InMemoryTransport: Transport {
        var body: Data
        var response: HTTPURLResponse

        func data(for request: URLRequest) async throws -> (Data, URLResponse) {
            (body, response)
        }
    }

    static func run(small: Data, options: Options, report: Report) async throws {
        let url = options.url(Endpoint.small.rawValue)
        let headers = ["Content-Type": "application/json", "Content-Length": "\(small.count)"]
        guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw BenchError("can't make an HTTPURLResponse for \(url)") }
        let webservice = Webservice(transport: InMemoryTransport(body: small, response: response))
        let resource = Resource<[Item]>(get: url, decoder: JSONDecoder.items())
        let decoder = JSONDecoder.items()
        let loads = options.stubLoads
        let times = try await Interleaved.pairs(
            rounds: options.rounds, count: loads,
            library: { _ = try check(try await webservice.load(resource), .small) },
            raw: { _ = try check(decoder.decode([Item].self, from: small), .small) })
        let library = Samples(values: times.library.map { $0 * 1_000_000 / Double(loads) })
        let raw = Samples(values: times.raw.map { $0 * 1_000_000 / Double(loads) })
        print("-- diagnostic: small.json through an in-memory Transport (\(loads) per round), no target --")
        let rows = [
            ("Webservice(transport: in-memory).load", library), ("JSONDecoder.decode alone", raw),
        ].map { name, samples in
            [
                name, Format.number(samples.median, decimals: 1) + " µs",
                Format.number(samples.min, decimals: 1) + " – " + Format.number(samples.max, decimals: 1),
            ]
        }
        Table.print(header: ["variant", "median", "spread (min – max)"], rows: rows)
        let overhead = library.median - raw.median
        print(
            "   the library's own overhead: \(Format.number(overhead, decimals: 1)) µs per load "
                + "(request building, load's hops, status check), before any transport's work")
        report.addSummaryLine(
            SummaryLine(
                section: "Parse", shape: "small.json via in-memory Transport (diagnostic)",
                definition: "decode ÷ load (time)", ratio: raw.median / library.median, target: "—", passes: true,
                kind: .info))
    }
}
