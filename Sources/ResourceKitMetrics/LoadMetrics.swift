#if Metrics
    import CoreMetrics
    import Foundation
    import ResourceKitCore
    import ResourceKitBuiltIns
    internal import ResourceKitSupport
    import Synchronization

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Records OpenTelemetry's HTTP client metrics for every request a ``Webservice`` sends, and each load's duration
    /// and outcome, with swift-metrics: a ``Middleware``, from the package's `Metrics` trait.
    ///
    /// Each request the transport gets, every ``RetryPolicy`` attempt included, is measured where the transport gets
    /// it, whatever the middleware's place; the load is measured from its place, so put it first. The metrics, their
    /// attributes and what they cost are in <doc:Observability#Metrics>.
    ///
    /// ```swift
    /// let webservice = Webservice(middleware: [LoadMetrics(), RetryPolicy(), authentication])
    /// ```
    public struct LoadMetrics: Middleware {
        /// The factory the metrics are made with; `nil` uses `MetricsSystem.factory` as each load starts.
        private let factory: (any MetricsFactory)?
        /// The attributes of the origins the loads went to, shared by the middleware's copies.
        private let origins = MeasuredOrigins()

        /// Creates the middleware; without a factory, it uses the one the process bootstrapped.
        public init(factory: (any MetricsFactory)? = nil) {
            self.factory = factory
        }

        /// Measures the load, and has each request the transport gets measured.
        public func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws
            -> Response
        {
            let method = request.method
            let recorder = MetricsRecorder(
                factory: factory ?? MetricsSystem.factory, origins: origins, method: method, url: request.url,
                attributes: origins.attributes(method: method, url: request.url))
            var context = context
            let observer = context.observer
            context.observer = { event in
                observer?(event)
                recorder.observe(event)
            }
            let start = Uptime.now()
            do {
                let response = try await next(request, context)
                recorder.finish(statusCode: response.statusCode, failure: nil, seconds: Uptime.seconds(since: start))
                return response
            } catch {
                recorder.finish(statusCode: nil, failure: context.named(error), seconds: Uptime.seconds(since: start))
                throw error
            }
        }
    }

    /// The metrics of one load: its requests as their events arrive, then the load itself.
    ///
    /// A request is measured as the transport got it (the event's request), with its own method and origin, which a
    /// later middleware may have changed; the load with its own. Each measurement goes to the handler the factory
    /// makes for its name and attributes, without the metric object of swift-metrics around it, and the attributes
    /// are built once for each origin and method: with a no-op factory, the cost is the events' and this
    /// bookkeeping's (<doc:Observability#What-the-signals-cost>).
    final class MetricsRecorder: Sendable {
        /// What the load's events said so far.
        private struct State {
            /// The requests sent.
            var sent = 0
            /// Whether the cache answered, fresh or after a `304`.
            var answeredFromCache = false
        }

        private let factory: any MetricsFactory
        /// The attributes of the origins and methods measured, shared with the middleware.
        private let origins: MeasuredOrigins
        /// The load's first request's method and URL.
        private let method: String
        private let url: URL?
        /// The attributes of the load: its first request's method, server and scheme.
        private let load: Attributes
        private let state = Mutex(State())

        init(factory: any MetricsFactory, origins: MeasuredOrigins, method: String, url: URL?, attributes: Attributes) {
            self.factory = factory
            self.origins = origins
            self.method = method
            self.url = url
            load = attributes
        }

        /// The metrics' names, as OpenTelemetry's HTTP client conventions and ResourceKit name them.
        enum Name {
            static let requestDuration = "http.client.request.duration"
            static let activeRequests = "http.client.active_requests"
            static let requestBodySize = "http.client.request.body.size"
            static let responseBodySize = "http.client.response.body.size"
            static let loadDuration = "resourcekit.load.duration"
        }

        /// Records what `event` says of a request: each one sent ends with one event, a response or a failure,
        /// cancellations included (`Observing`), even one the cache sends in the background after the load.
        func observe(_ event: WebserviceEvent) {
            switch event.kind {
            case .sent:
                factory.makeMeter(label: Name.activeRequests, dimensions: attributes(of: event).common).increment(by: 1)
                state.withLock { $0.sent += 1 }
            case .received(let statusCode, let bytes, let duration):
                let request = attributes(of: event)
                let dimensions = request.answered(statusCode)
                ended(event, request, duration: duration, dimensions: dimensions)
                if event.countsBody {
                    factory.makeRecorder(label: Name.responseBodySize, dimensions: dimensions, aggregate: true)
                        .record(Int64(bytes))
                }
            case .failed(let error, let duration):
                let request = attributes(of: event)
                var dimensions = request.common
                if let statusCode = (error as? WebserviceError)?.statusCode {
                    dimensions.append(("http.response.status_code", Self.text(statusCode)))
                }
                dimensions.append(("error.type", HTTPClientConventions.errorType(of: error)))
                ended(event, request, duration: duration, dimensions: dimensions)
            case .cacheHit, .revalidated:
                state.withLock { $0.answeredFromCache = true }
            case .retryScheduled, .waitingForNetwork, .credentialRefreshed:
                break
            }
        }

        /// The attributes of the request `event` is about, as the transport got it: its method and origin.
        ///
        /// Each event carries its request, so a request's end is measured with its own attributes even when it ends
        /// after another was sent (a probe or attempt the load's timeout abandoned).
        private func attributes(of event: WebserviceEvent) -> Attributes {
            let request = event.request()
            let (method, url) = (request.method, request.url)
            // Most requests are the load's as it started: its attributes, without a look-up.
            if method == self.method, url == self.url { return load }
            return origins.attributes(method: method, url: url)
        }

        /// Records the end of the request of `event`, with `request`'s attributes, that took `duration` seconds: it is
        /// no longer active, and its duration and its body's size have the attributes of how it ended.
        private func ended(
            _ event: WebserviceEvent, _ request: Attributes, duration: TimeInterval, dimensions: [(String, String)]
        ) {
            factory.makeMeter(label: Name.activeRequests, dimensions: request.common).decrement(by: 1)
            factory.makeTimer(label: Name.requestDuration, dimensions: dimensions).recordNanoseconds(
                Self.nanoseconds(duration))
            if let bodySize = event.requestBodySize {
                factory.makeRecorder(label: Name.requestBodySize, dimensions: dimensions, aggregate: true).record(
                    bodySize)
            }
        }

        /// Records the load, which took `seconds` and failed with `failure` (named by the load's deadline) or was
        /// answered with `statusCode`, a failure from `400` on, as for a request.
        func finish(statusCode: Int?, failure: (any Error)?, seconds: TimeInterval) {
            let (sent, fromCache) = state.withLock { ($0.sent, $0.answeredFromCache) }
            let errorType =
                failure.map { HTTPClientConventions.errorType(of: $0) }
                ?? statusCode.flatMap { $0 >= 400 ? Self.text($0) : nil }
            let dimensions =
                if let errorType {
                    load.common + [("resourcekit.load.outcome", "failed"), ("error.type", errorType)]
                } else {
                    fromCache ? load.answeredFromCache : sent > 1 ? load.retried : load.loaded
                }
            factory.makeTimer(label: Name.loadDuration, dimensions: dimensions).recordNanoseconds(
                Self.nanoseconds(seconds))
        }

        /// `seconds` in nanoseconds, as swift-metrics keeps durations.
        private static func nanoseconds(_ seconds: TimeInterval) -> Int64 {
            let nanoseconds = (max(seconds, 0) * 1_000_000_000).rounded()
            return nanoseconds < 9e18 ? Int64(nanoseconds) : .max
        }

        /// The decimal text of a status code, from a table for the usual ones.
        static func text(_ statusCode: Int) -> String {
            (100..<600).contains(statusCode) ? statusTexts[statusCode - 100] : String(statusCode)
        }

        private static let statusTexts = (100..<600).map { String($0) }

        /// The attributes of the measurements of the loads of one method to one origin: those every measurement has
        /// (`common`: the method, server and scheme, never a path or query), and, built once, those with a load's
        /// outcome and with a response's status.
        final class Attributes: Sendable {
            let common: [(String, String)]
            let loaded: [(String, String)]
            let retried: [(String, String)]
            let answeredFromCache: [(String, String)]
            /// `common` with each status answered so far, for the first 64.
            private let answers = Mutex<[Int: [(String, String)]]>([:])

            init(method: String, url: URL?) {
                var common = [("http.request.method", HTTPClientConventions.method(method))]
                if let server = HTTPClientConventions.server(of: url) {
                    common.append(("server.address", server.address))
                    if let port = server.port { common.append(("server.port", String(port))) }
                }
                if let scheme = url?.scheme { common.append(("url.scheme", asciiLowercased(scheme))) }
                self.common = common
                loaded = common + [("resourcekit.load.outcome", "network")]
                retried = common + [("resourcekit.load.outcome", "retried")]
                answeredFromCache = common + [("resourcekit.load.outcome", "cache_hit")]
            }

            /// The attributes of a request answered with `statusCode`: an error from `400` on.
            func answered(_ statusCode: Int) -> [(String, String)] {
                if let found = answers.withLock({ $0[statusCode] }) { return found }
                var dimensions = common + [("http.response.status_code", MetricsRecorder.text(statusCode))]
                if statusCode >= 400 { dimensions.append(("error.type", MetricsRecorder.text(statusCode))) }
                answers.withLock { if $0.count < 64 { $0[statusCode] = dimensions } }
                return dimensions
            }
        }
    }

    /// The attributes of the few origins and methods a web service's loads go to, each built once: up to 32, then
    /// built for each load.
    final class MeasuredOrigins: Sendable {
        private struct Entry {
            let method: String
            /// The URL's scheme, and its authority without the user's name and password: its host and port.
            let scheme: [UInt8]
            let server: [UInt8]
            let attributes: MetricsRecorder.Attributes

            func matches(_ method: String, _ origin: Origin) -> Bool {
                self.method == method && MeasuredOrigins.equal(server, origin.server)
                    && MeasuredOrigins.equal(scheme, origin.scheme)
            }
        }

        /// A URL's scheme and server, as bytes of its text.
        typealias Origin = (scheme: Slice<UnsafeBufferPointer<UInt8>>, server: Slice<UnsafeBufferPointer<UInt8>>)

        private let entries = Mutex<[Entry]>([])

        /// The attributes of a load of `url` with `method`.
        func attributes(method: String, url: URL?) -> MetricsRecorder.Attributes {
            guard let url else { return MetricsRecorder.Attributes(method: method, url: nil) }
            var text = url.absoluteString
            return text.withUTF8 { bytes in
                // A URL without `//` and a server after it is measured, but its attributes aren't kept.
                guard let origin = Self.origin(of: bytes) else {
                    return MetricsRecorder.Attributes(method: method, url: url)
                }
                if let found = entries.withLock({ $0.first { $0.matches(method, origin) } }) {
                    return found.attributes
                }
                let made = Entry(
                    method: method, scheme: Array(origin.scheme), server: Array(origin.server),
                    attributes: MetricsRecorder.Attributes(method: method, url: url))
                return entries.withLock { entries in
                    // Another load may have kept the same origin meanwhile.
                    if let kept = entries.first(where: { $0.matches(method, origin) }) { return kept.attributes }
                    if entries.count < 32 { entries.append(made) }
                    return made.attributes
                }
            }
        }

        /// The scheme of the URL `text`, and its authority after any `user:password@`: the bytes from `://` up to the
        /// first `/`, `?` or `#`; `nil` without `://` or a server after it.
        static func origin(of text: UnsafeBufferPointer<UInt8>) -> Origin? {
            guard let colon = text.firstIndex(of: UInt8(ascii: ":")), colon + 2 < text.count,
                text[colon + 1] == UInt8(ascii: "/"), text[colon + 2] == UInt8(ascii: "/")
            else { return nil }
            var start = colon + 3
            var end = start
            while end < text.count {
                let byte = text[end]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                if byte == UInt8(ascii: "@") { start = end + 1 }
                end += 1
            }
            guard start < end else { return nil }
            return (text[..<colon], text[start..<end])
        }

        /// Whether `bytes` are those of `slice`.
        fileprivate static func equal(_ bytes: [UInt8], _ slice: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
            bytes.count == slice.count
                && bytes.withUnsafeBufferPointer { stored in
                    slice.isEmpty
                        || memcmp(stored.baseAddress!, slice.base.baseAddress! + slice.startIndex, slice.count) == 0
                }
        }
    }
#endif
