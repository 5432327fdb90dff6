import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a response's header fields cost per field: a head of 7 000 fields against one of 70, through a web service with
/// a `ResponseCache` (no network).
///
/// Each round loads a resource whose response must be revalidated (`no-cache` and an `ETag`), then loads it again and
/// gets a `304` with the same fields: the cache stores the first response's fields, the `304`'s replace them, and the
/// parse reads one field. A cost per field that stays the same at 100 times the fields is linear; a scan of the
/// fields for each field makes the large head 100 times as costly per field.
enum HeaderFieldsShape {
    static let target = Target.atLeast(0.5)
    static let (few, many) = (70, 7_000)

    /// Answers with ``fields`` and `Cache-Control: no-cache` and an `ETag`: `200` with a short body, and `304` to a
    /// request that sends the `ETag` back.
    struct ManyFieldsTransport: Transport {
        var fields: [String: String]

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            let revalidates = request.value(forHTTPHeaderField: "If-None-Match") != nil
            let head = Response(statusCode: revalidates ? 304 : 200, headers: fields, url: request.url)
            return (head, ResponseBody(revalidates ? Data() : Data("ok".utf8)))
        }
    }

    static func run(options: Options, report: Report) async throws {
        report.heading("Header fields: a head of \(many) fields against one of \(few), per field, through a cache")
        guard let url = URL(string: "http://bench.invalid/fields") else { throw BenchError("bad URL") }
        let resource = Resource<Int>(url: url) { data, response in
            data.count + (response?.value(forHTTPHeaderField: "X-Field-1") == nil ? 0 : 1)
        }
        // Per round, about as many fields for each: 100 revalidated loads of the small head, 1 of the large one.
        func perField(fieldCount: Int, loads: Int) async throws -> Double {
            var fields = ["Cache-Control": "no-cache", "ETag": #""v1""#]
            for index in 0..<fieldCount - fields.count { fields["X-Field-\(index)"] = "value \(index)" }
            let transport = ManyFieldsTransport(fields: fields)
            let seconds = try await ContinuousClock().measure {
                for _ in 0..<loads {
                    let webservice = Webservice(transport: transport, cache: ResponseCache(byteLimit: 100_000_000))
                    guard try await webservice.load(resource) == 3, try await webservice.load(resource) == 3 else {
                        throw BenchError("the header fields' load didn't answer from the revalidated response")
                    }
                }
            }.seconds
            return seconds / Double(loads * fieldCount) * 1e9
        }
        var small: [Double] = []
        var large: [Double] = []
        for round in 0..<options.rounds {
            // Alternating which goes first, as the other sections do.
            if round.isMultiple(of: 2) {
                small.append(try await perField(fieldCount: few, loads: many / few))
                large.append(try await perField(fieldCount: many, loads: 1))
            } else {
                large.append(try await perField(fieldCount: many, loads: 1))
                small.append(try await perField(fieldCount: few, loads: many / few))
            }
        }
        report.add(
            Comparison(
                section: "Headers", shape: "two loads through a cache, the second a 304, per header field",
                unit: "ns/field", decimals: 0, libraryName: "\(many) fields", rawName: "\(few) fields",
                library: Samples(values: large), raw: Samples(values: small), better: .lower, target: target))
    }
}
