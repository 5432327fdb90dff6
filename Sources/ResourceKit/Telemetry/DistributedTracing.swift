#if Tracing
    import Foundation
    import Synchronization
    import Tracing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Traces every request a ``Webservice`` sends with swift-distributed-tracing: a ``Middleware``, from the package's
    /// `Tracing` trait.
    ///
    /// Each request the transport gets, every retry and resend included, is a client span whose parent is the caller's
    /// `ServiceContext.current`, and carries the span's context in its header fields (`traceparent` with a W3C
    /// tracer). When the caller has no `ServiceContext`, a span for the load is the parent of its requests' spans: one
    /// trace a load. Its place in the array doesn't matter; what the spans say is in <doc:Observability#Tracing>.
    ///
    /// ```swift
    /// let webservice = Webservice(middleware: [RetryPolicy(), authentication, DistributedTracing()])
    /// ```
    public struct DistributedTracing: Middleware {
        /// The tracer that starts the spans; `nil` uses `InstrumentationSystem.tracer` as each load starts.
        public var tracer: (any Tracer)?

        /// Creates the middleware; without a tracer, it uses the one the process bootstrapped.
        public init(tracer: (any Tracer)? = nil) {
            self.tracer = tracer
        }

        /// Hands the tracer and the caller's trace to the layer that traces each request the transport gets.
        public func intercept(_ request: URLRequest, context: LoadContext, next: @escaping Next) async throws
            -> Response
        {
            let tracer = tracer ?? InstrumentationSystem.tracer
            var context = context
            if let parent = ServiceContext.current {
                context.trace = LoadContext.Trace(tracer: tracer, parent: parent)
                return try await next(request, context)
            }
            // No caller's trace: the load's span, started by the first request to pass, is the parent of every
            // request's span, whatever the middleware's place; the web service ends it with the load. Called outside
            // a load (a test's `LoadContext()`), the span is the middleware's own.
            let method = HTTPClientConventions.method(request.httpMethod ?? "GET")
            let load = context.loadSpan ?? LoadSpan()
            let parent = load.context {
                let span = tracer.startSpan(context.name.map { Redaction.scrub($0) } ?? method, context: .topLevel)
                span.attributes["http.request.method"] = method
                return span
            }
            context.trace = LoadContext.Trace(tracer: tracer, parent: parent)
            guard context.loadSpan == nil else { return try await next(request, context) }
            do {
                let response = try await next(request, context)
                load.end(statusCode: response.statusCode)
                return response
            } catch {
                load.end(failure: error, timedOut: context.timeRemaining.map { $0 <= 0 } == true)
                throw error
            }
        }
    }

    /// The span of a load whose caller has no trace: started by the first request ``DistributedTracing`` passes, ended
    /// by the web service when the load has its answer.
    final class LoadSpan: Sendable {
        private let span = Mutex<(any Span)?>(nil)

        /// The context of the load's span, which `start` starts when the load has none yet.
        func context(startingWith start: () -> any Span) -> ServiceContext {
            span.withLock { span in
                if let span { return span.context }
                let started = start()
                span = started
                return started.context
            }
        }

        /// Ends the load's span, if it started: answered with `statusCode`, failed from `400` on, or failed with
        /// `failure`.
        func end(statusCode: Int? = nil, failure: (any Error)? = nil, timedOut: Bool = false) {
            guard let span = span.withLock({ $0.take() }) else { return }
            let errorType =
                failure.map { HTTPClientConventions.errorType(of: $0, timedOut: timedOut) }
                ?? statusCode.flatMap { $0 >= 400 ? String($0) : nil }
            span.attributes["http.response.status_code"] = statusCode
            if let errorType {
                span.attributes["error.type"] = errorType
                span.setStatus(SpanStatus(code: .error))
            }
            span.end()
        }
    }

    extension LoadContext {
        /// What ``DistributedTracing`` read as the load passed it: the tracer, and the caller's trace, the parent of
        /// each span (`ClientSpan`).
        struct Trace: Sendable {
            var tracer: any Tracer
            var parent: ServiceContext
        }
    }
#endif
