import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pipeline's observer: tells the ``LoadContext/observer`` of each request handed to the transport, and of the
/// response or failure it brought, with the errors as ``Webservice/load(_:)->A`` throws them.
struct Observing: Middleware {
    func intercept(_ request: URLRequest, context: LoadContext, next: @escaping Next) async throws -> Response {
        guard let observer = context.observer else { return try await next(request, context) }
        observer(WebserviceEvent(.sent, request: request))
        let start = Uptime.now()
        do {
            let response = try await next(request, context)
            let kind = WebserviceEvent.Kind.received(
                statusCode: response.statusCode, bytes: response.body.count, duration: Uptime.seconds(since: start))
            observer(WebserviceEvent(kind, request: request))
            return response
        } catch {
            if !(error is CancellationError) {
                observer(WebserviceEvent(.failed(error, duration: Uptime.seconds(since: start)), request: request))
            }
            throw error
        }
    }
}
