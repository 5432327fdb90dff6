#if Metrics
    import CoreMetrics
    import Foundation
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

        /// Creates the middleware; without a factory, it uses the one the process bootstrapped.
        public init(factory: (any MetricsFactory)? = nil) {
            self.factory = factory
        }

        /// Measures the load, and has each request the transport gets measured.
        public func intercept(_ request: URLRequest, context: LoadContext, next: @escaping Next) async throws
            -> Response
        {
            let recorder = MetricsRecorder(factory: factory ?? MetricsSystem.factory)
            var context = context
            let observer = context.observer
            context.observer = { event in
                observer?(event)
                recorder.observe(event)
            }
            let start = Uptime.now()
            do {
                let response = try await next(request, context)
                recorder.finish(
                    request, statusCode: response.statusCode, failure: nil, timedOut: false,
                    seconds: Uptime.seconds(since: start))
                return response
            } catch {
                let timedOut = context.timeRemaining.map { $0 <= 0 } == true
                recorder.finish(
                    request, statusCode: nil, failure: error, timedOut: timedOut, seconds: Uptime.seconds(since: start))
                throw error
            }
        }
    }

    /// The metrics of one load: its requests as their events arrive, then the load itself.
    final class MetricsRecorder: Sendable {
        /// What the load's events said so far.
        private struct State {
            /// The requests sent.
            var sent = 0
            /// Whether the cache answered, fresh or after a `304`.
            var answeredFromCache = false
            /// The request sent and not yet answered: its attributes and when it was sent.
            var pending: (attributes: [(String, String)], start: UInt64)?
        }

        private let factory: any MetricsFactory
        private let state = Mutex(State())

        init(factory: any MetricsFactory) {
            self.factory = factory
        }

        /// The metrics' names, as OpenTelemetry's HTTP client conventions and ResourceKit name them.
        enum Name {
            static let requestDuration = "http.client.request.duration"
            static let activeRequests = "http.client.active_requests"
            static let requestBodySize = "http.client.request.body.size"
            static let responseBodySize = "http.client.response.body.size"
            static let loadDuration = "resourcekit.load.duration"
        }

        /// Records what `event` says of a request.
        func observe(_ event: WebserviceEvent) {
            switch event.kind {
            case .sent:
                let attributes = Self.attributes(method: event.method, url: event.sentURL)
                Meter(label: Name.activeRequests, dimensions: attributes, factory: factory).increment()
                if let size = event.requestBodySize {
                    Recorder(label: Name.requestBodySize, dimensions: attributes, factory: factory).record(size)
                }
                state.withLock {
                    $0.sent += 1
                    $0.pending = (attributes, Uptime.now())
                }
            case .received(let statusCode, let bytes, let duration):
                guard let attributes = state.withLock({ $0.pending.take()?.attributes }) else { return }
                Meter(label: Name.activeRequests, dimensions: attributes, factory: factory).decrement()
                var measured = attributes + [("http.response.status_code", String(statusCode))]
                if statusCode >= 400 { measured.append(("error.type", String(statusCode))) }
                recordDuration(duration, attributes: measured)
                if event.countsBody {
                    Recorder(label: Name.responseBodySize, dimensions: measured, factory: factory).record(bytes)
                }
            case .failed(let error, let duration):
                guard let attributes = state.withLock({ $0.pending.take()?.attributes }) else { return }
                Meter(label: Name.activeRequests, dimensions: attributes, factory: factory).decrement()
                recordDuration(duration, attributes: Self.failed(attributes, error, timedOut: event.timedOut))
            case .cacheHit, .revalidated:
                state.withLock { $0.answeredFromCache = true }
            case .retryScheduled, .waitingForNetwork, .credentialRefreshed:
                break
            }
        }

        /// Records the load, which took `seconds` and failed with `failure` or was answered with `statusCode`, a
        /// failure from `400` on, as for a request; a request still unanswered, cancelled with its load, is recorded
        /// with the load's error.
        func finish(
            _ request: URLRequest, statusCode: Int?, failure: (any Error)?, timedOut: Bool, seconds: TimeInterval
        ) {
            let (sent, fromCache, pending) = state.withLock { ($0.sent, $0.answeredFromCache, $0.pending.take()) }
            if let pending {
                Meter(label: Name.activeRequests, dimensions: pending.attributes, factory: factory).decrement()
                let error = failure ?? CancellationError()
                recordDuration(
                    Uptime.seconds(since: pending.start),
                    attributes: Self.failed(pending.attributes, error, timedOut: timedOut))
            }
            let errorType =
                failure.map { HTTPClientConventions.errorType(of: $0, timedOut: timedOut) }
                ?? statusCode.flatMap { $0 >= 400 ? String($0) : nil }
            let outcome = errorType != nil ? "failed" : fromCache ? "cache_hit" : sent > 1 ? "retried" : "network"
            var attributes = Self.attributes(method: request.httpMethod ?? "GET", url: request.url)
            attributes.append(("resourcekit.load.outcome", outcome))
            if let errorType { attributes.append(("error.type", errorType)) }
            CoreMetrics.Timer(label: Name.loadDuration, dimensions: attributes, factory: factory).recordSeconds(seconds)
        }

        private func recordDuration(_ seconds: TimeInterval, attributes: [(String, String)]) {
            CoreMetrics.Timer(label: Name.requestDuration, dimensions: attributes, factory: factory).recordSeconds(
                seconds)
        }

        /// The attributes of every measurement of a request: its method, server and scheme; never its path or query.
        static func attributes(method: String, url: URL?) -> [(String, String)] {
            var attributes = [("http.request.method", HTTPClientConventions.method(method))]
            if let server = HTTPClientConventions.server(of: url) {
                attributes.append(("server.address", server.address))
                if let port = server.port { attributes.append(("server.port", String(port))) }
            }
            if let scheme = url?.scheme { attributes.append(("url.scheme", asciiLowercased(scheme))) }
            return attributes
        }

        /// `attributes` with a failure's `error.type`, and its status when it has a response.
        private static func failed(_ attributes: [(String, String)], _ error: any Error, timedOut: Bool)
            -> [(String, String)]
        {
            var attributes = attributes
            if let statusCode = (error as? WebserviceError)?.statusCode {
                attributes.append(("http.response.status_code", String(statusCode)))
            }
            attributes.append(("error.type", HTTPClientConventions.errorType(of: error, timedOut: timedOut)))
            return attributes
        }
    }
#endif
