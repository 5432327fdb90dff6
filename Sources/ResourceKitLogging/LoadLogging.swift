#if Logging
    import Foundation
    import ResourceKitCore
    import ResourceKitBuiltIns
    internal import ResourceKitSupport
    import Logging

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Logs each load and every request it sends with swift-log, with no credential in any line: a ``Middleware``, from
    /// the package's `Logging` trait.
    ///
    /// A load logs to the logger bound with swift-log's `withLogger(_:_:)` around it, when there is one, as
    /// AsyncHTTPClient's `execute(_:timeout:logger:)` takes one a request; otherwise to the logger given here, with the
    /// metadata bound around the load. The lines, their levels and their metadata are in <doc:Observability#Logging>.
    ///
    /// ```swift
    /// let webservice = Webservice(middleware: [LoadLogging(logger: Logger(label: "api")), RetryPolicy()])
    /// try await withLogger(requestLogger) { _ in try await webservice.load(Episode.all) }
    /// ```
    public struct LoadLogging: Middleware {
        /// The logger of loads that have none bound; `nil` uses `Logger.current`.
        private let logger: Logger?

        /// Creates the middleware; without a logger, each load logs to `Logger.current`.
        public init(logger: Logger? = nil) {
            self.logger = logger
        }

        /// Logs the load and, as they happen, the events of its requests.
        public func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws
            -> Response
        {
            let bound = Logger.current
            var logger = bound
            // swift-log's unbound task-local logger has an empty label, and keeps it when `withLogger(mergingMetadata:)`
            // adds metadata to it: then this middleware's logger, with that metadata.
            if bound.label.isEmpty, let own = self.logger {
                logger = own
                for (key, value) in bound.handler.metadata { logger[metadataKey: key] = value }
            }
            // Every line is at `debug` or `trace`: above, the load costs nothing more.
            guard logger.logLevel <= .debug else { return try await next(request, context) }
            let method = request.method
            let url = request.redactedURL
            let load = "\(method) \(url?.absoluteString ?? Redaction.mark)"
            logger[metadataKey: "http.request.method"] = "\(method)"
            logger[metadataKey: "url.full"] = "\(url?.absoluteString ?? Redaction.mark)"
            if let name = context.name { logger[metadataKey: "resourcekit.resource"] = "\(Redaction.scrub(name))" }
            var context = context
            let observer = context.observer
            context.observer = { [logger] event in
                observer?(event)
                Self.log(event, to: logger)
            }
            let start = Uptime.now()
            do {
                let response = try await next(request, context)
                let seconds = Uptime.seconds(since: start)
                var metadata: Logger.Metadata = [
                    "http.response.status_code": "\(response.statusCode)",
                    "resourcekit.attempt": "\(response.attempts)", "resourcekit.duration": "\(seconds)",
                ]
                // From 400 on, a failed load, as its metric and span say.
                if response.statusCode >= 400 { metadata["error.type"] = "\(response.statusCode)" }
                logger.debug(
                    "\(load): \(response.statusCode), loaded in \(Self.milliseconds(seconds))", metadata: metadata)
                return response
            } catch {
                let seconds = Uptime.seconds(since: start)
                let named = context.named(error)
                logger.debug(
                    "\(load): load failed after \(Self.milliseconds(seconds))",
                    metadata: [
                        "error.type": "\(HTTPClientConventions.errorType(of: named))",
                        "resourcekit.error": "\(Redaction.scrub("\(named)"))", "resourcekit.duration": "\(seconds)",
                    ])
                throw error
            }
        }

        /// Logs `event`: a request sent at `trace`, with its `curl` command; everything else at `debug`.
        static func log(_ event: WebserviceEvent, to logger: Logger) {
            var metadata: Logger.Metadata = ["resourcekit.attempt": "\(event.attempt)"]
            switch event.kind {
            case .sent:
                guard logger.logLevel <= .trace else { return }
                metadata["resourcekit.curl"] = "\(event.cURLDescription)"
                logger.trace("\(event)", metadata: metadata)
                return
            case .received(let statusCode, let bytes, let duration):
                metadata["http.response.status_code"] = "\(statusCode)"
                if statusCode >= 400 { metadata["error.type"] = "\(statusCode)" }
                if event.countsBody { metadata["http.response.body.size"] = "\(bytes)" }
                metadata["resourcekit.duration"] = "\(duration)"
            case .failed(let error, let duration):
                metadata["error.type"] = "\(HTTPClientConventions.errorType(of: error))"
                metadata["resourcekit.duration"] = "\(duration)"
            case .retryScheduled(_, let delay):
                metadata["resourcekit.delay"] = "\(delay)"
            case .waitingForNetwork(_, let maxWait):
                metadata["resourcekit.delay"] = "\(maxWait)"
            case .cacheHit(_, let staleness):
                metadata["resourcekit.staleness"] = "\(staleness)"
            case .credentialRefreshed, .revalidated:
                break
            }
            logger.debug("\(event)", metadata: metadata)
        }

        private static func milliseconds(_ seconds: TimeInterval) -> String {
            "\(Int((seconds * 1000).rounded())) ms"
        }
    }
#endif
