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
        public func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws
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
            let load = context.loadSpan ?? LoadSpan()
            guard
                let parent = load.context(startingWith: { Self.startSpan(of: request, context: context, with: tracer) })
            else {
                // The load has ended (its deadline passed) while this request was still on its way: no trace.
                return try await next(request, context)
            }
            context.trace = LoadContext.Trace(tracer: tracer, parent: parent)
            guard context.loadSpan == nil else { return try await next(request, context) }
            do {
                let response = try await next(request, context)
                load.end(statusCode: response.statusCode)
                return response
            } catch {
                load.end(failure: context.named(error))
                throw error
            }
        }

        /// The span of a load whose caller has no trace, named for its resource or its method (`HTTP` for a method
        /// OpenTelemetry doesn't name).
        private static func startSpan(of request: Request, context: LoadContext, with tracer: any Tracer) -> any Span {
            let method = HTTPClientConventions.method(request.method)
            let name = context.name.map { Redaction.scrub($0) } ?? (method == "_OTHER" ? "HTTP" : method)
            let span = tracer.startSpan(name, context: .topLevel)
            span.attributes["http.request.method"] = method
            return span
        }
    }

    /// The span of a load whose caller has no trace: started by the first request ``DistributedTracing`` passes, ended
    /// by the web service when the load has its answer; none starts after that.
    final class LoadSpan: Sendable {
        private enum State {
            case idle
            case started(any Span)
            case ended
        }

        private let state = Mutex(State.idle)

        /// The context of the load's span, which `start` starts when the load has none yet; `nil` once the load ended.
        ///
        /// The tracer starts the span outside the lock; of two requests that start one at once (there are none in a
        /// load), the second's is ended unused.
        func context(startingWith start: () -> any Span) -> ServiceContext? {
            switch state.withLock({ $0 }) {
            case .started(let span): return span.context
            case .ended: return nil
            case .idle: break
            }
            let started = start()
            let kept = state.withLock { state in
                guard case .idle = state else { return false }
                state = .started(started)
                return true
            }
            if kept { return started.context }
            started.end()
            return state.withLock { state in
                guard case .started(let span) = state else { return nil }
                return span.context
            }
        }

        /// Ends the load's span, if it started: answered with `statusCode`, failed from `400` on, or failed with
        /// `failure`.
        ///
        /// No span starts after this.
        func end(statusCode: Int? = nil, failure: (any Error)? = nil) {
            let previous = state.withLock { state in
                defer { state = .ended }
                return state
            }
            guard case .started(let span) = previous else { return }
            let errorType =
                failure.map { HTTPClientConventions.errorType(of: $0) }
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
