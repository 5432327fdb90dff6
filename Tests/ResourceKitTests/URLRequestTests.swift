import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct URLRequestTests {
    private static let body = Data(#"{"id":"9","title":"Nine"}"#.utf8)

    @Test(arguments: [
        (HTTPMethod<Data>.get, "GET"),
        (.post(body), "POST"),
        (.put(body), "PUT"),
        (.patch(body), "PATCH"),
        (.delete, "DELETE"),
    ])
    func requestCarriesMethodHeadersAndBody(method: HTTPMethod<Data>, name: String) {
        let resource = Resource<Data>(url: baseURL, method: method, headers: ["X-Trace": "abc"]) { $0 }
        let request = URLRequest(resource: resource)
        #expect(request.url == baseURL)
        #expect(request.httpMethod == name)
        #expect(request.httpBody == method.body)
        #expect(request.value(forHTTPHeaderField: "X-Trace") == "abc")
        #expect(request.allHTTPHeaderFields?.count == 1)
    }

    @Test func getRequestHasNoBodyAndAsksForJSON() {
        let request = URLRequest(resource: Episode.all)
        #expect(request.httpMethod == "GET")
        #expect(request.httpBody == nil)
        #expect(request.allHTTPHeaderFields == ["Accept": "application/json"])
    }

    /// `"X-\u{212A}ind".lowercased()` is `"x-kind"`: the Kelvin sign lowercases to `k`, but it isn't that name.
    @Test func aRedirectToAnotherOriginDropsAFieldWhoseNameIsSafeOnlyOnceUnicodeLowercasesIt() throws {
        var request = URLRequest(url: try #require(URL(string: "https://elsewhere.example/")))
        request.setValue("s3cret", forHTTPHeaderField: "X-\u{212A}ind")
        let redirected = request.redirected(from: URLRequest(url: baseURL), extraSafeHeaders: ["x-kind"])
        #expect(redirected.allHTTPHeaderFields?.isEmpty != false, "\(redirected.allHTTPHeaderFields ?? [:])")
    }

    @Test func headerFieldsKeepTheirNamesAsWritten() {
        let resource = Resource<Data>(url: baseURL, headers: ["X-Request-ID": "7", "accept": "text/csv"]) { $0 }
        #expect(URLRequest(resource: resource).allHTTPHeaderFields == ["X-Request-ID": "7", "accept": "text/csv"])
    }

    /// Two of a resource's fields whose names differ only in case are one name: the request keeps both, and a
    /// `URLRequest`, which keeps one value per name, joins them.
    @Test func namesThatDifferOnlyInCaseAreOneFieldWithBothValues() throws {
        let resource = Resource<Data>(url: baseURL, headers: ["X-Trace": "a", "x-trace": "b"]) { $0 }
        #expect(Set(Request(resource: resource).headerFields.map(\.value)) == ["a", "b"])
        let fields = try #require(URLRequest(resource: resource).allHTTPHeaderFields)
        #expect(fields.count == 1)
        #expect(["a,b", "b,a"].contains(fields.values.first))
    }

    /// The public conversion, for a transport of yours built on `URLSession`: a file body goes along as a stream.
    ///
    /// With its length, so a transport that sends what it is given sends the file's bytes; on Linux without its length, even one a caller set: FoundationNetworking sends a stream chunked, and both would
    /// make a request a server must refuse.
    @Test func aRequestsFileBodyBecomesAStreamWithItsLength() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 7, count: 1_234).write(to: file)
        var request = Request(method: "PUT", url: baseURL, body: .file(file))
        request.addValue("a", forHTTPHeaderField: "X-Trace")
        request.addValue("b", forHTTPHeaderField: "X-Trace")
        request.setValue("1234", forHTTPHeaderField: "Content-Length")
        let converted = try URLRequest(request)
        #expect(converted.httpMethod == "PUT")
        #expect(converted.httpBody == nil && converted.httpBodyStream != nil)
        #if canImport(FoundationNetworking)
            #expect(converted.value(forHTTPHeaderField: "Content-Length") == nil)
        #else
            #expect(converted.value(forHTTPHeaderField: "Content-Length") == "1234")
        #endif
        #expect(converted.value(forHTTPHeaderField: "X-Trace") == "a,b")
    }

    /// A form whose encoding fails is thrown by the conversion, never sent as an empty body.
    @Test func aFormThatCantBeEncodedIsThrownNotDropped() {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)")
        let request = Request(
            method: "POST", url: baseURL,
            body: .multipart([.file("upload", at: missing, contentType: "application/octet-stream")]))
        #expect(throws: WebserviceError.self) { try URLRequest(request) }
    }
}
