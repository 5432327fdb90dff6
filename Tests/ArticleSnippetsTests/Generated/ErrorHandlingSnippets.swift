// Generated from Sources/ResourceKit/ResourceKit.docc/ErrorHandling.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// ErrorHandling.md:41, block 1
@MainActor private func errorHandlingSnippet1() async throws {
    do {
        episodes = try await webservice.load(Episode.all)
    } catch is CancellationError {
        // The view went away: nothing to report.
    } catch let error as WebserviceError where error.statusCode == 401 {
        signIn()
    } catch let error as WebserviceError where (error.underlyingError as? URLError)?.code == .notConnectedToInternet {
        showOfflineBanner()
    } catch let error as WebserviceError where error.statusCode == 503 {
        showMaintenanceNotice(until: error.response?.value(forHTTPHeaderField: "Retry-After"))
    } catch {
        logger.error("Loading episodes failed: \(String(describing: error))")
    }
}

// ErrorHandling.md:68, block 2
private struct APIError: Error, Decodable {
    var error: String
    var reason: String
}

private func episode(id: String) async throws -> Episode? {
    let one = Resource<Episode>(get: baseURL.appendingPathComponent("episodes/\(id)"))
        .decodingAPIErrors(as: APIError.self)
    do {
        return try await webservice.load(one)
    } catch let error as WebserviceError {
        guard case .apiError(let apiError as APIError, let response) = error.reason, response.statusCode == 404
        else { throw error }
        print(apiError.reason)
        return nil
    }
}

// ErrorHandling.md:124, block 3
@MainActor private func errorHandlingSnippet3() async throws {
    WebserviceError.describesBodies = false
}

// ErrorHandling.md:150, block 4
@MainActor private func errorHandlingSnippet4() async throws {
    WebserviceError.credentialNames.insert("partner_code")
}
