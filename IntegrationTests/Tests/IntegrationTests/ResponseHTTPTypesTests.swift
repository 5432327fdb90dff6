import Foundation
import HTTPTypes
import ResourceKit
import Testing

/// `HTTPResponse(_:)` and `Response(_:body:url:)`: ResourceKit's response as swift-http-types' and back.
@Suite struct ResponseHTTPTypesTests {
    @Test func fieldsKeepTheirOrderAndRepeatsBothWays() throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .setCookie, value: "a=1"))
        fields.append(HTTPField(name: .contentType, value: "application/json"))
        fields.append(HTTPField(name: .setCookie, value: "b=2"))
        let head = HTTPResponse(status: .created, headerFields: fields)
        let response = Response(head, body: Data("{}".utf8), url: URL(string: "https://api.example.com/episodes"))
        #expect(response.statusCode == 201)
        #expect(response.value(forHTTPHeaderField: "set-cookie") == "a=1, b=2")
        #expect(response.body.data == Data("{}".utf8))
        #expect(HTTPResponse(response) == head)
    }

    @Test(arguments: ["Bad Name", ":status", "", "X-\u{212A}ey", "Line\r\nBreak"])
    func aFieldWhoseNameHTTPTypesRejectsIsLeftOut(name: String) throws {
        let response = Response(statusCode: 200, headers: [name: "dropped", "X-Kept": "kept"])
        let head = try #require(HTTPResponse(response))
        #expect(head.headerFields.map(\.name.rawName) == ["X-Kept"])
        #expect(head.headerFields[HTTPField.Name("X-Kept")!] == "kept")
    }

    @Test func aValuesForbiddenBytesBecomeSpaces() throws {
        let head = try #require(HTTPResponse(Response(statusCode: 200, headers: ["X-Note": "a\r\nb"])))
        #expect(head.headerFields[HTTPField.Name("X-Note")!] == "a  b")
    }

    @Test(arguments: [-1, 1000, Int.max])
    func aStatusHTTPResponseCantHoldGivesNil(status: Int) {
        #expect(HTTPResponse(Response(statusCode: status)) == nil)
    }

    @Test func fieldsPastWhatHTTPFieldsHoldsAreLeftOut() throws {
        var headers: [String: String] = [:]
        for index in 0..<Int(UInt16.max) + 10 { headers["X-\(index)"] = "v" }
        let head = try #require(HTTPResponse(Response(statusCode: 200, headers: headers)))
        #expect(head.headerFields.count == Int(UInt16.max) - 1)
    }
}
