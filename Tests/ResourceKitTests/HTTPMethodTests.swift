import Foundation
import ResourceKit
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

@Suite struct HTTPMethodTests {
    @Test(
        arguments: [
            (HTTPMethod<Int>.get, "GET", nil),
            (.post(1), "POST", 1),
            (.put(2), "PUT", 2),
            (.patch(3), "PATCH", 3),
            (.delete, "DELETE", nil),
        ] as [(HTTPMethod<Int>, String, Int?)])
    func nameAndBodyMatchTheCase(method: HTTPMethod<Int>, name: String, body: Int?) {
        #expect(method.name == name)
        #expect(method.body == body)
    }

    @Test func mapTransformsTheBodyAndKeepsTheMethod() {
        let mapped: HTTPMethod<String> = HTTPMethod<Int>.post(1).map { String($0) }
        #expect(mapped == .post("1"))
        #expect(HTTPMethod<Int>.put(2).map { $0 * 10 } == .put(20))
        #expect(HTTPMethod<Int>.patch(3).map { -$0 } == .patch(-3))
    }

    @Test func mapLeavesBodilessMethodsAloneWithoutCallingTransform() {
        var calls = 0
        let get: HTTPMethod<String> = HTTPMethod<Int>.get.map {
            calls += 1; return String($0)
        }
        let delete: HTTPMethod<String> = HTTPMethod<Int>.delete.map {
            calls += 1; return String($0)
        }
        #expect(get == .get)
        #expect(delete == .delete)
        #expect(calls == 0)
    }

    @Test func mapPropagatesTheTransformsTypedError() {
        struct Refused: Error, Equatable {}
        #expect(throws: Refused()) {
            try HTTPMethod<Int>.post(1).map { (_: Int) throws(Refused) -> String in throw Refused() }
        }
    }
}
