import Foundation

/// The pipeline's observer: tells the ``LoadContext/observer`` of each request handed to the transport, and of the
/// response or failure it brought.
///
/// Errors are as ``Webservice/load(_:)->A`` throws them: past the load's deadline,
/// ``WebserviceError/Reason/timedOut(after:)`` (``LoadContext/named(_:)``). It reports, and changes nothing it passes
/// on.
struct Observing: Middleware {
    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        guard let observer = context.observer else { return try await next(request, context) }
        let fileLength = request.body?.file == nil ? nil : try? request.body?.length()
        observer(WebserviceEvent(.sent, request: request, context: context, bodyFileLength: fileLength))
        let start = Uptime.now()
        do {
            let response = try await next(request, context)
            let kind = WebserviceEvent.Kind.received(
                statusCode: response.statusCode, bytes: response.body.data?.count ?? 0,
                duration: Uptime.seconds(since: start))
            let countsBody = response.body.data != nil && context.destination == nil
            observer(
                WebserviceEvent(
                    kind, request: request, context: context, bodyFileLength: fileLength, countsBody: countsBody))
            return response
        } catch {
            // A cancellation too: every request sent ends with one event, which metrics count on. Past the deadline,
            // the event says the timeout, whichever error the request ended with; the layers before get the error as
            // it is, and each names it by its own load's deadline (a shared request runs with another load's).
            let kind = WebserviceEvent.Kind.failed(context.named(error), duration: Uptime.seconds(since: start))
            observer(WebserviceEvent(kind, request: request, context: context, bodyFileLength: fileLength))
            throw error
        }
    }
}
