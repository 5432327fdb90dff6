import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a chain of middleware that does nothing costs a load.
///
/// `Webservice.load` with four no-op middleware against the same load with none, both through the in-memory
/// transport, where the library's own work is the largest share of a load it can be; any real transport's work makes
/// the share smaller.
enum MiddlewareShape {
    static let target = Target.atLeast(0.99)
    static let count = 4

    /// Passes every request on unchanged.
    struct NoOp: Middleware {
        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            try await next(request, context)
        }
    }

    /// One load of `small` through `middleware`, four no-op ones by default, and one through none, each checked.
    static func variants(
        small: Data,
        options: Options,
        middleware: [any Middleware] = Array(repeating: NoOp(), count: count)
    ) throws -> (library: @Sendable () async throws -> Void, raw: @Sendable () async throws -> Void) {
        let url = options.url(Endpoint.small.rawValue)
        let headers = ["Content-Type": "application/json", "Content-Length": "\(small.count)"]
        guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw BenchError("can't make an HTTPURLResponse for \(url)") }
        let transport = OverheadShape.InMemoryTransport(body: small, response: response)
        let chained = Webservice(transport: transport, middleware: middleware)
        let direct = Webservice(transport: transport)
        let resource = Resource<[Item]>(get: url, decoder: JSONDecoder.items())
        return (
            { _ = try check(try await chained.load(resource), .small) },
            { _ = try check(try await direct.load(resource), .small) }
        )
    }

    static func run(small: Data, options: Options, report: Report) async throws {
        let (library, raw) = try variants(small: small, options: options)
        let loads = options.stubLoads
        let times = try await Interleaved.pairs(rounds: options.rounds, count: loads, library: library, raw: raw)
        report.add(
            Comparison(
                section: "Parse",
                shape: "small.json via in-memory Transport, \(count) no-op middleware (\(loads) per round)",
                unit: "µs", decimals: 1, libraryName: "load with \(count) no-op middleware",
                rawName: "load with none",
                library: Samples(values: times.library.map { $0 * 1_000_000 / Double(loads) }),
                raw: Samples(values: times.raw.map { $0 * 1_000_000 / Double(loads) }), better: .lower, target: target),
            notes: ["the instruction counts (--instructions) are the steadier measure of this difference"])
    }
}
