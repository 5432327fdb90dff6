#if Tracing
    import Foundation
    import Tracing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Traces every request a ``Webservice`` sends with swift-distributed-tracing: a ``Middleware``, from the package's
    /// `Tracing` trait.
    ///
    /// Each request the transport gets, every retry and resend included, is a client span whose parent is the caller's
    /// `ServiceContext.current`, and carries the span's context in its header fields (`traceparent` with a W3C
    /// tracer). Its place in the array doesn't matter; what the spans say is in <doc:Observability#Tracing>.
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
            var context = context
            context.trace = LoadContext.Trace(
                tracer: tracer ?? InstrumentationSystem.tracer, parent: ServiceContext.current ?? .topLevel)
            return try await next(request, context)
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
