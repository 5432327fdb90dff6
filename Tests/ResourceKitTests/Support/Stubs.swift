import Foundation
import ResourceKitTesting

/// The stubs the tests share, each a `StubTransport` of the testing kit with a log of its own.
extension StubTransport {
    /// A stub with one route that answers every request, whatever its method and URL, with `answer`.
    static func answering(_ answer: StubAnswer) -> StubTransport {
        StubTransport([.init("*", "/**", answer)])
    }

    /// Answers `200` with `[]` after a minute, unless its task is cancelled first: a server that keeps the client
    /// waiting.
    static var stalling: StubTransport {
        answering(.json("[]").delayed(by: 60))
    }

    /// A server whose `…/token` endpoint answers anyone, and whose other endpoints answer `200` with `ok` to
    /// ``tokenEndpointCredential`` only, and `401` otherwise: for credential providers that load their token.
    static var behindTokenEndpoint: StubTransport {
        answering(
            .computed { request in
                let accepted =
                    request.url.lastPathComponent == "token"
                    || request.value(forHTTPHeaderField: "Authorization") == tokenEndpointCredential
                return .status(accepted ? 200 : 401, body: Data("ok".utf8))
            })
    }

    /// The credential ``behindTokenEndpoint`` accepts.
    static let tokenEndpointCredential = "Bearer from-the-token-endpoint"

    /// Holds every request at `gate` until the test opens it for the URL's last path component, then answers `200`
    /// with that name as the body.
    ///
    /// The gate ignores cancellation, as a transport may. `Gate.resource("a")` loads `…/a`.
    static func gated(by gate: Gate) -> StubTransport {
        answering(
            .computed { request in
                let name = request.url.lastPathComponent
                try await gate.pass(name)
                return .status(200, body: Data(name.utf8))
            })
    }
}

/// What a test's fake transport or loader noted, in order.
actor Notes<Element: Sendable> {
    private(set) var all: [Element] = []

    func append(_ element: Element) {
        all.append(element)
    }
}
