import Foundation
import ResourceKit
import SwiftTalk

// What a new user reaches for on the first day (issue 46), each step against the same server, one line each.

extension JSONDecoder {
    /// The app's one decoder.
    static var api: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension Resource where A: Decodable & SendableMetatype {
    /// The app's resources: relative to its web service's `baseURL`, decoded with its decoder, their errors with its
    /// model: said once, here.
    init(api path: String) {
        self = Resource(get: URL(string: path)!, decoder: .api).decodingAPIErrors(as: APIErrorBody.self, decoder: .api)
    }
}

extension Tour {
    /// The first day's conveniences, in the order a new user meets them.
    mutating func firstDay() async {
        let api = makeWebservice(baseURL, nil, [])
        await environment(api)
        await valueWithItsResponse(api)
        await appWideErrorModel(api)
        await statusesAsASet(api)
    }

    /// A relative resource goes to the web service's base URL: the environment is the web service's.
    private mutating func environment(_ api: Webservice) async {
        let all = Resource<[Episode]>(api: "episodes")
        _ = await transcript.step("GET episodes (relative)") { [baseURL] in
            let episodes = try await api.load(all)
            return ((), "\(episodes.count) episodes from \(baseURL.host ?? "")'s baseURL, the resource names no host")
        }
    }

    /// The value and the response's head together, from the same resource.
    private mutating func valueWithItsResponse(_ api: Webservice) async {
        let all = Resource<[Episode]>(api: "episodes").withResponse
        _ = await transcript.step("GET episodes (withResponse)") {
            let (episodes, response) = try await api.load(all)
            let type = response.value(forHTTPHeaderField: "Content-Type") ?? "no Content-Type"
            return (
                (), "\(episodes.count) episodes with HTTP \(response.statusCode), \(type), \(response.url?.path ?? "")"
            )
        }
    }

    /// The app's error model, said once in `init(api:)`, decodes a 404's body.
    private mutating func appWideErrorModel(_ api: Webservice) async {
        let missing = Resource<Episode>(api: "episodes/99")
        _ = await transcript.step("GET episodes/99 (app's error model)") {
            do {
                _ = try await api.load(missing)
                throw StepFailure("expected a 404")
            } catch let error as WebserviceError {
                guard case .apiError(let body as APIErrorBody, let response) = error.reason else { throw error }
                return ((), "HTTP \(response.statusCode) decoded by init(api:) as \(body.error): \(body.reason)")
            }
        }
    }

    /// Acceptable statuses as a set: a 409 the app expects is a value, not an error.
    private mutating func statusesAsASet(_ api: Webservice) async {
        _ = await transcript.step("GET faults/status/409 ([200, 409])") {
            var conflict = try Resource<Void>(url: URL(string: "faults/status/409")!)
            conflict.acceptableStatusCodes = [200, 409]
            let (_, response) = try await api.load(conflict.withResponse)
            return ((), "HTTP \(response.statusCode) accepted: acceptableStatusCodes = [200, 409]")
        }
    }
}
