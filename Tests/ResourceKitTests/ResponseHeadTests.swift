import Foundation
import Synchronization
import Testing

@testable import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How often a head built its response.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class Builds: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    /// A head of `statusCode` that counts here how often its response is built.
    func head(_ statusCode: Int) throws -> ResponseHead {
        let response = try httpResponse(statusCode, headers: ["Retry-After": "5"])
        return ResponseHead(statusCode: statusCode) {
            self.count.withLock { $0 += 1 }
            return response
        }
    }
}

/// A load builds the `HTTPURLResponse` only when the parse or an error reads it.
@Suite struct ResponseHeadTests {
    @Test func parseOfTheBodyAloneBuildsNoResponse() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        let builds = Builds()
        let resource = Resource<Int>(url: baseURL, parse: { $0.count })
        #expect(try resource.value(from: Data("abc".utf8), head: builds.head(200)) == 3)
        #expect(try resource.map { $0 * 2 }.value(from: Data("ab".utf8), head: builds.head(200)) == 4)
        #expect(builds.value == 0)
    }

    @Test func parseThatTakesTheResponseGetsIt() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        let builds = Builds()
        let resource = Resource<Int>(url: baseURL, parse: { _, response in response?.statusCode ?? -1 })
        #expect(try resource.value(from: Data(), head: builds.head(201)) == 201)
        #expect(builds.value == 1)
    }

    @Test func parseAssignedLaterGetsTheResponse() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        var resource = Resource<Int>(url: baseURL, parse: { _ in 0 })
        resource.parse = { _, response in response?.statusCode ?? -1 }
        #expect(try resource.value(from: Data(), head: Builds().head(200)) == 200)
    }

    @Test func errorsCarryTheResponseTheyBuild() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        struct Unparsable: Error {}
        let resource = Resource<Int>(url: baseURL, parse: { _ in throw Unparsable() })
        let unacceptable = try #require(throws: WebserviceError.self) {
            try resource.value(from: Data(), head: Builds().head(503))
        }
        #expect(try requireCase(\WebserviceError.unacceptableStatus, of: unacceptable).headers["Retry-After"] == "5")
        let unparsed = try #require(throws: WebserviceError.self) {
            try resource.value(from: Data(), head: Builds().head(200))
        }
        #expect(try requireCase(\WebserviceError.parsing, of: unparsed).response.headers["Retry-After"] == "5")
    }

    @Test func responseThatIsNotHTTPIsRefused() throws {
        let response = URLResponse(url: baseURL, mimeType: nil, expectedContentLength: 1, textEncodingName: nil)
        let error = try #require(throws: WebserviceError.self) {
            try Resource<Int>(url: baseURL, parse: { $0.count }).value(from: Data("a".utf8), response: response)
        }
        #expect(try requireCase(\.nonHTTPResponse, of: error) == Data("a".utf8))
    }
}
