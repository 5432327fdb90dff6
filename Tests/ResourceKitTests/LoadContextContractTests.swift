import Foundation
import ResourceKit
import ResourceKitTesting  // not `@testable`: the context as a user's middleware sees it
import Synchronization
import Testing

/// What a middleware of a user's own reads and does with the load's context, through the public API alone: what the
/// built-in ones do.
@Suite struct LoadContextContractTests {
    /// What ``Watching`` saw.
    final class Seen: Sendable {
        let events = Mutex<[String]>([])
        let context = Mutex<(timeout: TimeInterval?, policy: CachePolicy?, attempts: Int?)>((nil, nil, nil))
    }

    /// A middleware that wraps the web service's observer, as the telemetry middleware do, reports an event of its
    /// own, and reads the deadline and the cache policy.
    struct Watching: Middleware {
        let seen: Seen

        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            var context = context
            let observer = context.observer
            context.observer = { [seen] event in
                seen.events.withLock { $0.append("\(event.kind)") }
                observer?(event)
            }
            context.report(.credentialRefreshed, for: request)
            let response = try await next(request, context)
            seen.context.withLock {
                $0 = (context.deadline?.timeout, context.cachePolicy, context.deadline?.progress.attempts)
            }
            return response
        }
    }

    @Test func aMiddlewareOfYoursSeesEveryEventTheDeadlineAndTheCachePolicy() async throws {
        let seen = Seen()
        let observed = Mutex<[String]>([])
        let url = try #require(URL(string: "https://api.example.com/episodes"))
        let webservice = Webservice(
            transport: StubTransport([.init("GET", "/episodes", .json("[1]"))]),
            middleware: [Watching(seen: seen)],
            observer: { event in observed.withLock { $0.append("\(event.kind)") } })
        var resource = Resource<[Int]>(get: url)
        resource.timeout = 5
        resource.cachePolicy = .revalidate

        #expect(try await webservice.load(resource) == [1])

        // The middleware's own event, then the pipeline's, which the web service's observer hears too.
        let events = seen.events.withLock { $0 }
        #expect(events.count == 3)
        #expect(events.prefix(2) == ["credentialRefreshed", "sent"])
        #expect(events.last?.hasPrefix("received(statusCode: 200") == true)
        #expect(observed.withLock { $0 } == events)
        let context = seen.context.withLock { $0 }
        #expect(context.timeout == 5)
        #expect(context.policy == .revalidate)
        #expect(context.attempts == 1)
    }
}
