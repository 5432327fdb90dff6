#if Logging
    import Logging

    /// The logger a server framework hands a request's handler.
    public let requestLogger = Logger(label: "request")
#endif

#if Metrics
    import CoreMetrics

    /// A stand-in for swift-prometheus' factory.
    public struct PrometheusMetricsFactory: MetricsFactory {
        /// A factory.
        public init() {}

        /// A counter.
        public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
            NOOPMetricsHandler.instance
        }

        /// A recorder.
        public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler
        {
            NOOPMetricsHandler.instance
        }

        /// A timer.
        public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
            NOOPMetricsHandler.instance
        }

        /// Forgets a counter.
        public func destroyCounter(_ handler: any CounterHandler) {}

        /// Forgets a recorder.
        public func destroyRecorder(_ handler: any RecorderHandler) {}

        /// Forgets a timer.
        public func destroyTimer(_ handler: any TimerHandler) {}
    }
#endif
