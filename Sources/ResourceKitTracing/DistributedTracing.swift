#if Tracing
    import Foundation
    import ResourceKitCore
    import ResourceKitBuiltIns
    internal import ResourceKitSupport
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

        /// Makes the load's receiver trace each request the transport gets, in the caller's trace or the load's span.
        public func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws
            -> Response
        {
            let tracer = tracer ?? InstrumentationSystem.tracer
            var context = context
            if let parent = ServiceContext.current {
                context.receiver = ClientSpan(tracer: tracer, parent: parent, receiver: context.receiver)
                return try await next(request, context)
            }
            // No caller's trace: the load's span, started by the first request to pass, is the parent of every
            // request's span, whatever the middleware's place, and ends with the load.
            let load = context.load.value(for: ObjectIdentifier(LoadSpan.self)) { LoadSpan() }
            guard
                let parent = load.context(
                    of: context.load,
                    startingWith: {
                        Self.startSpan(of: request, context: context, with: tracer)
                    })
            else {
                // The load has ended (its deadline passed) while this request was still on its way: no trace.
                return try await next(request, context)
            }
            context.receiver = ClientSpan(tracer: tracer, parent: parent, receiver: context.receiver)
            return try await next(request, context)
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
    /// when the load ends (``LoadContext/Load/onEnd(_:)``); none starts after that.
    final class LoadSpan: Sendable {
        private let span = Mutex<(any Span)?>(nil)

        /// The context of the load's span, which `start` starts when the load has none yet; `nil` once `load` ended.
        ///
        /// The tracer starts the span outside the lock; of two requests that start one at once (there are none in a
        /// load), the second's is ended unused.
        func context(of load: LoadContext.Load, startingWith start: () -> any Span) -> ServiceContext? {
            if let started = span.withLock({ $0 }) { return started.context }
            guard !load.hasEnded else { return nil }
            let started = start()
            let kept = span.withLock { span in
                guard span == nil else { return false }
                span = started
                return true
            }
            guard kept else {
                started.end()
                return span.withLock { $0?.context }
            }
            // At once, if the load ended meanwhile.
            load.onEnd { outcome in
                switch outcome {
                case .success(let statusCode): Self.end(started, statusCode: statusCode)
                case .failure(let error): Self.end(started, failure: error)
                }
            }
            return started.context
        }

        /// Ends `span`: answered with `statusCode`, failed from `400` on, or failed with `failure`.
        private static func end(_ span: any Span, statusCode: Int? = nil, failure: (any Error)? = nil) {
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
#endif
