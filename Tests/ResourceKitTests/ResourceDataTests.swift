import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct ResourceDataTests {
    @Test func bodyIsTheModelByteForByte() throws {
        let bytes = Data([0x00, 0xFF, 0xC3, 0x28, 0x0A])
        #expect(try Resource<Data>(url: baseURL).parse(bytes) == bytes)
        #expect(try Resource<Data>(url: baseURL).parse(fixture("text-utf16.txt")) == fixture("text-utf16.txt"))
    }

    @Test func emptyBodyIsEmptyData() throws {
        #expect(try Resource<Data>(url: baseURL).parse(fixture("empty.json")) == Data())
        #expect(try Resource<Data>(url: baseURL).value(from: Data(), response: httpResponse(204)) == Data())
    }

    @Test func explicitMethodStillMeansRawBytesNotJSON() throws {
        // `Data` is Decodable too; naming the method must not pick the JSON-decoding initializer.
        let get = Resource<Data>(url: baseURL, method: .get)
        #expect(try get.parse(Data("not JSON".utf8)) == Data("not JSON".utf8))
    }

    @Test func addsNoHeadersAndSendsTheBodyUnchanged() throws {
        #expect(Resource<Data>(url: baseURL).method == .get)
        #expect(Resource<Data>(url: baseURL).headers.isEmpty)
        let png = Data([0x89, 0x50, 0x4E, 0x47])
        let upload = Resource<Data>(url: baseURL, method: .put(png), headers: ["Content-Type": "image/png"])
        let request = URLRequest(resource: upload)
        #expect(request.httpMethod == "PUT")
        #expect(request.httpBody == png)
        #expect(upload.headers == ["Content-Type": "image/png"])
    }
}
