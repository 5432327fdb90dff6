import Foundation
import ResourceKit
import ResourceKitTesting
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Credentials attached to their own origins only, refreshed once for any number of rejected loads.
@Suite struct AuthenticationTests {
    /// A token service: each call issues `Bearer t1`, `Bearer t2`, …, and counts the calls and the rejected values.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    final class Tokens: Sendable {
        private let state = Mutex<(issued: Int, rejected: [String?])>((0, []))

        var issued: Int { state.withLock { $0.issued } }
        var rejected: [String?] { state.withLock { $0.rejected } }

        func next(rejecting rejected: String?) async throws -> String {
            try await Task.sleep(for: .milliseconds(5))  // long enough for the other loads to pile up behind it
            return state.withLock { state in
                state.issued += 1
                state.rejected.append(rejected)
                return "Bearer t\(state.issued)"
            }
        }
    }

    /// A server that accepts only `accepted` and answers 401 otherwise.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private static func server(accepting accepted: String) -> StubTransport {
        StubTransport.answering(
            .computed { request in
                .status(
                    request.value(forHTTPHeaderField: "Authorization") == accepted ? 200 : 401, body: Data("ok".utf8))
            })
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theCredentialGoesOnlyToTheOriginsItBelongsTo() async throws {
        let tokens = Tokens()
        let transport = Self.server(accepting: "Bearer t1")
        let authentication = Authentication(for: [baseURL]) { try await tokens.next(rejecting: $0) }
        let webservice = Webservice(transport: transport, middleware: [authentication])
        let urls = [
            "https://API.example.com:443/a", "https://api.example.com/b", "http://api.example.com/c",
            "https://api.example.com:8443/d", "https://evil.example.com/e",
        ]
        for url in urls {
            _ = try? await webservice.load(Resource<Data>(url: try #require(URL(string: url))))
        }
        let sent = await transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") }
        #expect(sent == ["Bearer t1", "Bearer t1", nil, nil, nil])
        #expect(tokens.issued == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aResourcesOwnCredentialIsLeftAlone() async throws {
        let transport = Self.server(accepting: "Bearer mine")
        let authentication = Authentication(for: [baseURL]) { _ in "Bearer t1" }
        var resource = thing()
        resource.headers["authorization"] = "Bearer mine"
        _ = try await Webservice(transport: transport, middleware: [authentication]).load(resource)
        #expect(await transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer mine"])
    }

    /// The sign-in request goes through the web service that is signed out: the closure, which has nothing to give, is
    /// never asked.
    @Test func aResourceThatSendsNoCredentialsNeverAsksForOne() async throws {
        struct SignedOut: Error {}
        let transport = StubTransport.answering(.status(201))
        let authentication = Authentication(for: [baseURL]) { _ in throw SignedOut() }
        var signIn = thing()
        signIn.sendsCredentials = false
        _ = try await Webservice(transport: transport, middleware: [authentication]).load(signIn)
        #expect(await transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == [nil])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func manyRejectedLoadsCauseOneRefreshAndAllRetryWithTheNewCredential() async throws {
        let (tokens, events) = (Tokens(), EventLog())
        let transport = Self.server(accepting: "Bearer t2")
        let authentication = Authentication(for: [baseURL]) { try await tokens.next(rejecting: $0) }
        let webservice = Webservice(transport: transport, middleware: [authentication], observer: events.observer)
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<50 { group.addTask { try await webservice.load(thing(at: "\(index)")) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: "ok", count: 50))
        #expect(tokens.issued == 2)
        #expect(tokens.rejected == [nil, "Bearer t1"])
        let requests = await transport.requests
        #expect(requests.count == 100)
        #expect(requests.filter { $0.value(forHTTPHeaderField: "Authorization") == "Bearer t2" }.count == 50)
        #expect(events.events.filter { if case .credentialRefreshed = $0.kind { true } else { false } }.count == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aCredentialRejectedAgainEndsTheLoadWithoutALoop() async throws {
        let tokens = Tokens()
        let transport = Self.server(accepting: "never")
        let authentication = Authentication(for: [baseURL]) { try await tokens.next(rejecting: $0) }
        let error = try await #require(throws: WebserviceError.self) {
            try await Webservice(transport: transport, middleware: [authentication]).load(thing())
        }
        #expect(try requireCase(\.unacceptableStatus, of: error).statusCode == 401)
        #expect(await transport.requests.count == 2)
        #expect(tokens.issued == 2)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aFailingRefreshFailsEveryWaitingLoadOnceWithATypedError() async throws {
        struct RefreshFailed: Error, CustomStringConvertible {
            var description: String { "refresh token rt-5f1e9c2d expired: Bearer t1" }
        }
        let calls = Mutex(0)
        let transport = Self.server(accepting: "never")
        let authentication = Authentication(for: [baseURL]) { rejected in
            calls.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(5))
            guard rejected == nil else { throw RefreshFailed() }
            return "Bearer t1"
        }
        let webservice = Webservice(transport: transport, middleware: [authentication])
        let errors = await withTaskGroup(of: (any Error)?.self) { group in
            for index in 0..<20 {
                group.addTask {
                    do {
                        _ = try await webservice.load(thing(at: "\(index)"))
                        return nil
                    } catch { return error }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for case let error as WebserviceError in errors {
            #expect(!String(describing: error).contains("Bearer t1"))
            guard case .authentication = error.reason else {
                Issue.record("Expected .authentication, got \(error)"); continue
            }
        }
        #expect(errors.count { $0 is WebserviceError } == 20)
        #expect(calls.withLock { $0 } == 2)
        #expect(await transport.requests.count == 20)
    }

    /// A transport that follows a redirect from the credential's origin to `target`, dropping the credential as
    /// ResourceKit's transports do, and answers there with `status`: the response's URL is the redirect's target.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private struct Redirecting: WholeTransport {
        var target: URL
        var status: Int
        let sent = Counter()

        func answer(_ request: Request) async throws -> (Data, URLResponse) {
            sent.increment()
            return (Data(), try httpResponse(status, url: target))
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aRejectionByAnotherOriginAfterARedirectRefreshesNothing() async throws {
        let tokens = Tokens()
        let transport = Redirecting(target: try #require(URL(string: "https://login.example.net/sso")), status: 401)
        let authentication = Authentication(for: [baseURL]) { try await tokens.next(rejecting: $0) }
        let error = try await #require(throws: WebserviceError.self) {
            try await Webservice(transport: transport, middleware: [authentication]).load(thing())
        }
        #expect(try requireCase(\.unacceptableStatus, of: error).statusCode == 401)
        #expect(tokens.issued == 1)
        #expect(transport.sent.count == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theRejectionStatusesAreConfigurable() async throws {
        let tokens = Tokens()
        let transport = StubTransport.answering(
            .computed { request in
                .status(request.value(forHTTPHeaderField: "X-Key") == "Bearer t2" ? 200 : 403, body: Data("ok".utf8))
            })
        let authentication = Authentication(for: [baseURL], headerField: "X-Key", refreshingOn: [403]) {
            try await tokens.next(rejecting: $0)
        }
        #expect(try await Webservice(transport: transport, middleware: [authentication]).load(thing()) == "ok")
        #expect(tokens.issued == 2)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aCredentialThatIsNotAValidHeaderValueIsRefused() async throws {
        let transport = Self.server(accepting: "never")
        let authentication = Authentication(for: [baseURL]) { _ in "Bearer t1\r\nX-Injected: 1" }
        let error = try await #require(throws: WebserviceError.self) {
            try await Webservice(transport: transport, middleware: [authentication]).load(thing())
        }
        #expect(error.underlyingError is WebserviceError)
        guard case .authentication = error.reason else { throw UnexpectedCase() }
        #expect(!error.description.contains("X-Injected"))
        #expect(await transport.requests.isEmpty)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(.timeLimit(.minutes(1)))
    func aLoadCancelledWhileTheProviderIsSlowEndsAtOnce() async throws {
        let transport = Self.server(accepting: "Bearer t1")
        let authentication = Authentication(for: [baseURL]) { _ in
            try? await Task.sleep(for: .seconds(3600))  // a provider that ignores cancellation, such as a login screen
            return "Bearer t1"
        }
        let load = Task { try await Webservice(transport: transport, middleware: [authentication]).load(thing()) }
        try await Task.sleep(for: .milliseconds(20))
        load.cancel()
        await #expect(throws: CancellationError.self) { try await load.value }
        #expect(await transport.requests.isEmpty)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(.timeLimit(.minutes(1)))
    func aProviderThatLoadsItsTokenThroughTheSameMiddlewareDoesNotWaitForItself() async throws {
        let transport = StubTransport.behindTokenEndpoint
        let tokenService = Mutex<Webservice?>(nil)
        let authentication = Authentication(for: [baseURL]) { _ in
            let webservice = try #require(tokenService.withLock { $0 })
            _ = try await webservice.load(thing(at: "token"))
            return StubTransport.tokenEndpointCredential
        }
        let webservice = Webservice(transport: transport, middleware: [authentication])
        tokenService.withLock { $0 = webservice }
        #expect(try await webservice.load(thing()) == "ok")
        let sent = await transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") }
        #expect(sent == [nil, StubTransport.tokenEndpointCredential])
    }

    // MARK: Signing in and out

    /// The values of `Authorization` that `transport` was sent, in order.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private static func sent(to transport: StubTransport) async -> [String?] {
        await transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aCredentialSetThroughOneCopyIsSentByEveryCopyUntilItIsRemoved() async throws {
        let tokens = Tokens()
        let transport = Self.server(accepting: "Bearer mine")
        let authentication = Authentication(for: [baseURL]) { try await tokens.next(rejecting: $0) }
        let webservice = Webservice(transport: transport, middleware: [authentication])
        let signIn = authentication  // the copy an app's sign-in screen holds
        try await signIn.setCredential("Bearer mine")
        #expect(try await webservice.load(thing()) == "ok")
        await signIn.removeCredential()
        await #expect(throws: WebserviceError.self) { try await webservice.load(thing()) }
        #expect(await Self.sent(to: transport) == ["Bearer mine", "Bearer t1", "Bearer t2"])
        #expect(tokens.rejected == [nil, "Bearer t1"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(.timeLimit(.minutes(1)))
    func aLoadInFlightAtASignOutNeverSendsTheOldCredentialAgain() async throws {
        let (tokens, gate) = (Tokens(), Gate())
        let transport = StubTransport.answering(
            .computed { request in
                guard request.value(forHTTPHeaderField: "Authorization") == "Bearer old" else {
                    return .status(200, body: Data("ok".utf8))
                }
                try await gate.pass("old")
                return .status(401)
            })
        let authentication = Authentication(for: [baseURL]) { try await tokens.next(rejecting: $0) }
        try await authentication.setCredential("Bearer old")
        let webservice = Webservice(transport: transport, middleware: [authentication])
        let load = Task { try await webservice.load(thing()) }
        try await eventually("the old credential is on its way") { await gate.started == ["old"] }
        await authentication.removeCredential()
        await gate.open("old")
        #expect(try await load.value == "ok")
        #expect(await Self.sent(to: transport) == ["Bearer old", "Bearer t1"])
        #expect(tokens.rejected == [nil])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test(.timeLimit(.minutes(1)))
    func aSignInWakesTheLoadsWaitingForTheProviderWithItsCredential() async throws {
        let gate = Gate()
        let authentication = Authentication(for: [baseURL]) { _ in
            try await gate.pass("provider")  // a login screen, which ignores cancellation
            return "Bearer late"
        }
        let transport = Self.server(accepting: "Bearer mine")
        let webservice = Webservice(transport: transport, middleware: [authentication])
        let loads = (0..<3).map { index in Task { try await webservice.load(thing(at: "\(index)")) } }
        try await eventually("the provider runs") { await gate.started == ["provider"] }
        try await authentication.setCredential("Bearer mine")
        try await eventuallyEnded(loads, "the waiting loads went on at once")
        for load in loads { #expect(try await load.value == "ok") }
        await gate.open("provider")
        #expect(try await webservice.load(thing()) == "ok")
        #expect(await Self.sent(to: transport) == Array(repeating: "Bearer mine", count: 4))
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aCredentialThatIsNotAValidHeaderValueIsNotSet() async throws {
        let transport = Self.server(accepting: "Bearer t1")
        let authentication = Authentication(for: [baseURL]) { _ in "Bearer t1" }
        let error = try await #require(throws: WebserviceError.self) {
            try await authentication.setCredential("Bearer mine\r\nX-Injected: 1")
        }
        #expect(!error.description.contains("X-Injected"))
        #expect(try await Webservice(transport: transport, middleware: [authentication]).load(thing()) == "ok")
        #expect(await Self.sent(to: transport) == ["Bearer t1"])
    }
}
