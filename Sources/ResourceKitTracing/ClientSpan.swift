#if Tracing
    import Foundation
    import ResourceKitCore
    import ResourceKitBuiltIns
    internal import ResourceKitSupport
    import Tracing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// ``DistributedTracing``'s client span for each request handed to the transport, in the trace it names, with the
    /// span's context written into the request's header fields.
    ///
    /// It is the load's receiver (``LoadContext/receiver``), wrapping the resource's: the innermost stage, which only a
    /// request the transport gets reaches. The trace fields are no part of a cache or de-duplication key, an answer
    /// from the cache sends nothing and starts no span, and no span times a wait for a place. Its attributes follow
    /// OpenTelemetry's HTTP client conventions; see <doc:Observability#Tracing>.
    struct ClientSpan: Middleware {
        let tracer: any Tracer
        /// The trace: the caller's, or the load's span.
        let parent: ServiceContext
        /// The resource's receiver, which reads the body inside the span.
        let receiver: (any Middleware)?

        func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
            let method = Self.method(of: request)
            let span = tracer.startSpan(method ?? "HTTP", context: parent, ofKind: .client)
            defer { span.end() }
            if span.isRecording { Self.describe(request, method: method, attempt: context.attempt, in: span) }
            var sent = request
            tracer.inject(span.context, into: &sent, using: HeaderFieldInjector())
            do {
                let response =
                    if let receiver {
                        try await receiver.intercept(sent, context: context, next: next)
                    } else {
                        try await next(sent, context)
                    }
                Self.record(response.statusCode, on: span)
                return response
            } catch {
                // Named from the load's deadline, not from the error that ended the request.
                let named = context.named(error)
                let timedOut: Bool = if case .timedOut = (named as? WebserviceError)?.reason { true } else { false }
                span.attributes["http.response.status_code"] = (named as? WebserviceError)?.statusCode
                span.attributes["error.type"] = HTTPClientConventions.errorType(of: named)
                span.setStatus(SpanStatus(code: .error))
                // The pipeline's errors are redacted already: no description, reflection or dump shows a credential.
                if !timedOut, !(named is CancellationError) { span.recordError(named) }
                throw error
            }
        }

        /// The request's method when OpenTelemetry names it, or `nil`.
        private static func method(of request: Request) -> String? {
            let method = request.method
            return HTTPClientConventions.knownMethods.contains(method) ? method : nil
        }

        /// Sets the request's attributes on `span`: its method, its URL without credentials, the server and the
        /// retry's number.
        private static func describe(_ request: Request, method: String?, attempt: Int, in span: any Span) {
            span.attributes["http.request.method"] = method ?? "_OTHER"
            if method == nil { span.attributes["http.request.method_original"] = request.method }
            do {
                let url = request.url
                let redacted = request.redactedURL
                span.attributes["url.full"] = redacted?.absoluteString ?? Redaction.mark
                let server = HTTPClientConventions.server(of: url)
                span.attributes["server.address"] = server?.address
                span.attributes["server.port"] = server?.port
            }
            if attempt > 1 { span.attributes["http.request.resend_count"] = attempt - 1 }
        }

        /// Sets the response's status on `span`, an error from `400` on, as a client's span has it.
        private static func record(_ statusCode: Int, on span: any Span) {
            span.attributes["http.response.status_code"] = statusCode
            if statusCode >= 400 {
                span.attributes["error.type"] = String(statusCode)
                span.setStatus(SpanStatus(code: .error))
            }
        }
    }

    /// Writes a tracer's fields into a request's header fields, replacing any field of the same name; it drops a field
    /// HTTP forbids, such as a value with a line break from baggage an incoming request carried.
    struct HeaderFieldInjector: Injector {
        func inject(_ value: String, forKey key: String, into request: inout Request) {
            guard (try? HeaderField(name: key, value: value).validate()) != nil else { return }
            request.setValue(value, forHTTPHeaderField: key)
        }
    }
#endif
