import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One value per endpoint, built once so no variant pays for building requests in its loop.
struct PerEndpoint<Value: Sendable>: Sendable {
    var small: Value
    var big: Value
    var big5: Value
    var big2: Value
    var huge: Value

    init(_ make: (Endpoint) -> Value) {
        small = make(.small)
        big = make(.big)
        big5 = make(.big5)
        big2 = make(.big2)
        huge = make(.huge)
    }

    subscript(endpoint: Endpoint) -> Value {
        switch endpoint {
        case .small: small
        case .big: big
        case .big5: big5
        case .big2: big2
        case .huge: huge
        }
    }
}

/// The library's resources for the endpoints: `[Item]` decoded with `.iso8601` dates for JSON, `Data` for bytes.
struct LibraryResources: Sendable {
    var items: PerEndpoint<Resource<[Item]>>
    var bytes: PerEndpoint<Resource<Data>>

    init(options: Options) {
        let decoder = JSONDecoder.items()
        items = PerEndpoint { Resource<[Item]>(get: options.url($0.rawValue), decoder: decoder) }
        bytes = PerEndpoint { Resource<Data>(url: options.url($0.rawValue)) }
    }

    /// Loads `endpoint` with `webservice`: items for JSON, the body for bytes.
    func load(_ endpoint: Endpoint, with webservice: Webservice) async throws -> Loaded {
        switch endpoint {
        case .small, .big: try check(try await webservice.load(items[endpoint]), endpoint)
        case .big5, .big2, .huge: .bytes(try await webservice.load(bytes[endpoint]))
        }
    }
}

/// `Webservice()` (ResourceKit's shared `URLSessionTransport`) against `URLSession.shared` used directly: each with
/// its own settings, so with 64 in flight the library must beat the raw default.
enum URLSessionClients {
    static func pair(options: Options) -> ClientPair {
        let urls = PerEndpoint { options.url($0.rawValue) }
        let decoder = JSONDecoder.items()
        return ClientPair(
            "URLSession", library: "Webservice().load", with: Webservice(), versus: "URLSession.shared (raw)",
            target: .atLeast(0.98), inFlightTarget: .above(1), options: options,
            raw: { endpoint in
                // The request is built per call, as the library builds its own and as a caller would write it.
                let request = URLRequest(url: urls[endpoint])
                let (data, response) = try await URLSession.shared.data(for: request)
                guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
                    throw BenchError("GET \(endpoint.rawValue) answered \(response)")
                }
                switch endpoint {
                case .small, .big: return try check(decoder.decode([Item].self, from: data), endpoint)
                case .big5, .big2, .huge: return .bytes(data)
                }
            })
    }
}
